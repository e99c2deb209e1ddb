// The back office's Clients: the search over orders and the people around them, an order's page read from its tables,
// its timeline (every table that tells something of the order, newest first), and the rows a new client is made of.
import { sql, type Transaction } from 'kysely'
import type { ClientMatchField } from '../../contract/operators.ts'
import { isoDay } from '../dates.ts'
import type { Database, Db } from '../schema.ts'
import { SYSTEM_ACTOR_LABELS } from './operators-journal.ts'

export interface ClientSearch {
  /** What was typed, blanks folded, LIKE's wildcards escaped (the database folds case and accents). */
  text: string
  /** The digits typed when nothing else was (blanks aside): a SIREN, whole or in part. */
  digits: string | null
  /** The number typed, when it can be an order's. */
  orderNumber: number | null
}

export interface ClientSearchRow {
  id: number
  raison_sociale: string
  siren: string | null
  legal_form: string | null
  status: string
  order_date: Date
  owner_id: number
  firstname: string
  lastname: string
  email: string
  matches: { field: ClientMatchField; value: string }[] | string | null
  total: string | number
}

const orderColumns = sql`o.id, o.raison_sociale, o.siren, o.legal_form, o.status, o.order_date,
  u.id as owner_id, u.firstname, u.lastname, u.email`

/** Every order, newest first (the Clients page before anything is typed). */
export async function listClients(db: Db, page: { offset: number; limit: number }): Promise<ClientSearchRow[]> {
  const { rows } = await sql<ClientSearchRow>`
    select ${orderColumns}, null as matches, count(*) over () as total
    from orders o join users u on u.id = o.owner_id
    order by o.order_date desc, o.id desc
    limit ${page.limit} offset ${page.offset}`.execute(db)
  return rows
}

/**
 * The orders something typed names, best first: the order of that number, then the SIREN or an owner's address given
 * whole, then the companies whose name starts with it, then the rest; by name within each. Each with what matched.
 */
export async function searchClients(db: Db, search: ClientSearch, page: { offset: number; limit: number }): Promise<ClientSearchRow[]> {
  const contains = `%${search.text}%`
  const startsWith = `${search.text}%`
  const folded = (expression: ReturnType<typeof sql>) => sql`search_fold(${expression}) like search_fold(${contains})`
  const { rows } = await sql<ClientSearchRow>`
    with hits (order_id, field, value, rank) as (
      select o.id, 'orderNumber', o.id::text, 0 from orders o where o.id = ${search.orderNumber}::int
      union all
      select o.id, 'siren', o.siren, case when regexp_replace(o.siren, '\\D', '', 'g') = ${search.digits}::text then 1 else 3 end
        from orders o
        where ${search.digits}::text is not null
          and regexp_replace(coalesce(o.siren, ''), '\\D', '', 'g') like '%' || ${search.digits}::text || '%'
      union all
      select o.id, 'raisonSociale', o.raison_sociale,
          case when search_fold(o.raison_sociale) like search_fold(${startsWith}) then 2 else 3 end
        from orders o where ${folded(sql`o.raison_sociale`)}
      union all
      select o.id, 'ownerName', u.firstname || ' ' || u.lastname, 3
        from orders o join users u on u.id = o.owner_id
        where ${folded(sql`u.firstname || ' ' || u.lastname`)} or ${folded(sql`u.lastname || ' ' || u.firstname`)}
      union all
      select o.id, 'ownerEmail', u.email, case when search_fold(u.email) = search_fold(${search.text}) then 1 else 3 end
        from orders o join users u on u.id = o.owner_id where ${folded(sql`u.email`)}
      union all
      select s.order_id, 'collaboratorEmail', s.email, case when search_fold(s.email) = search_fold(${search.text}) then 1 else 3 end
        from shares s where ${folded(sql`s.email`)}
      union all
      select s.order_id, 'collaboratorName', c.firstname || ' ' || c.lastname, 3
        from shares s join users c on c.id = s.user_id
        where ${folded(sql`c.firstname || ' ' || c.lastname`)} or ${folded(sql`c.lastname || ' ' || c.firstname`)}
      union all
      select m.order_id, 'representativeName', m.firstname || ' ' || m.lastname, 3
        from mandataires m
        where ${folded(sql`m.firstname || ' ' || m.lastname`)} or ${folded(sql`m.lastname || ' ' || m.firstname`)}
      union all
      select m.order_id, 'representativeEmail', m.email, case when search_fold(m.email) = search_fold(${search.text}) then 1 else 3 end
        from mandataires m where ${folded(sql`m.email`)}
    ),
    found as (
      select order_id, min(rank) as rank,
        json_agg(json_build_object('field', field, 'value', value) order by rank, field, value) as matches
      from hits group by order_id
    )
    select ${orderColumns}, found.matches, count(*) over () as total
    from found join orders o on o.id = found.order_id join users u on u.id = o.owner_id
    order by found.rank, search_fold(o.raison_sociale), o.id
    limit ${page.limit} offset ${page.offset}`.execute(db)
  return rows
}

/** An order with its owner and its contract, or undefined. */
export function findClientOrder(db: Db, orderId: number) {
  return db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.owner_id')
    .leftJoin('contracts as c', 'c.order_id', 'o.id')
    .select([
      'o.id',
      'o.raison_sociale',
      'o.siren',
      'o.legal_form',
      'o.status',
      'o.order_date',
      isoDay('o.starts_on').as('starts_on'),
      'o.domiciliation_address',
      'o.has_kbis',
      'o.missing_documents',
      'o.missing_documents_validated_at',
      'o.subscription_id',
      'u.id as owner_id',
      'u.firstname',
      'u.lastname',
      'u.email',
      'u.phone',
      'u.email_verified',
      'u.created_at as owner_created_at',
      'c.id as contract_id',
      'c.kbis_file_key',
      'c.kbis_filed_at',
      'c.kbis_validated_at',
      'c.adresse_postale_expedition',
      'c.adresse_complement_postale_expedition',
      'c.code_postale_expedition',
      'c.ville_postale_expedition',
      'c.pays_postale_expedition',
    ])
    .where('o.id', '=', orderId)
    .executeTakeFirst()
}

/** The lists an order's page shows beside the order itself. */
export async function clientOrderLists(db: Db, orderId: number) {
  const [collaborators, representatives, invoices, creditNotes, uploaded, termination, counts] = await Promise.all([
    db
      .selectFrom('shares as s')
      .leftJoin('users as c', 'c.id', 's.user_id')
      .select(['s.id', 's.email', 's.user_id', 's.created_at', 'c.firstname', 'c.lastname'])
      .where('s.order_id', '=', orderId)
      .orderBy('s.id')
      .execute(),
    db.selectFrom('mandataires').selectAll().where('order_id', '=', orderId).orderBy('id').execute(),
    db
      .selectFrom('invoices')
      .select(['id', 'number', 'date', 'amount_excl_tax_cents', 'amount_incl_tax_cents', 'paid_at'])
      .where('order_id', '=', orderId)
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .execute(),
    db
      .selectFrom('credit_notes')
      .select(['id', 'number', 'date', 'amount_incl_tax_cents'])
      .where('order_id', '=', orderId)
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .execute(),
    db.selectFrom('uploaded_documents').selectAll().where('order_id', '=', orderId).orderBy('id').execute(),
    db
      .selectFrom('termination_requests')
      .select(['created_at', isoDay('date').as('date'), 'reason', 'comment'])
      .where('order_id', '=', orderId)
      .executeTakeFirst(),
    db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('documents')
          .select((e) => e.fn.countAll<string>().as('n'))
          .where('order_id', '=', orderId)
          .where('deleted', '=', false)
          .as('letters'),
        eb
          .selectFrom('packages')
          .select((e) => e.fn.countAll<string>().as('n'))
          .where('order_id', '=', orderId)
          .where('status', '=', 'À retirer')
          .as('packages_waiting'),
        eb
          .selectFrom('courier_requests')
          .select((e) => e.fn.countAll<string>().as('n'))
          .where('order_id', '=', orderId)
          .where('status', '=', 'en attente')
          .as('pending_courier_requests'),
      ])
      .executeTakeFirstOrThrow(),
  ])
  return { collaborators, representatives, invoices, creditNotes, uploaded, termination, counts }
}

/** One row of the timeline as the database unites them: what happened (kind, what) and up to three texts and a number. */
export interface TimelineRow {
  at: Date
  kind: string
  what: string
  a: string | null
  b: string | null
  c: string | null
  n: number | null
  total: string | number
}

/**
 * Everything the tables tell of an order, newest first, `limit` rows from `offset`, with how many in all: the order and
 * its contract, its documents, letters (and their forwarding), packages, courier requests, invoices and their payment,
 * credit notes, options, certificates, problems reported, its termination, its formalities step by step, the people
 * added to it, and the journal's rows about it (operators' actions and machines' calls).
 */
export async function orderTimeline(db: Db, orderId: number, page: { offset: number; limit: number }): Promise<TimelineRow[]> {
  const { rows } = await sql<TimelineRow>`
    select at, kind, what, a, b, c, n, count(*) over () as total from (
      select o.order_date as at, 'order' as kind, 'created' as what, o.status as a, null::text as b, null::text as c,
          null::int as n, 0 as seq
        from orders o where o.id = ${orderId}
      union all
      select c.signed_at, 'contract', 'signed', null, null, null, null, c.id
        from contracts c where c.order_id = ${orderId} and c.signed_at is not null
      union all
      select c.kbis_filed_at, 'document', 'kbisFiled', null, null, null, null, c.id
        from contracts c where c.order_id = ${orderId} and c.kbis_filed_at is not null
      union all
      select c.kbis_validated_at, 'document', 'kbisValidated', null, null, null, null, c.id
        from contracts c where c.order_id = ${orderId} and c.kbis_validated_at is not null
      union all
      select d.uploaded_at, 'document', 'identityUploaded', d.label, d.file_name, null, null, d.id
        from uploaded_documents d where d.order_id = ${orderId}
      union all
      select o.missing_documents_validated_at, 'document', 'identityComplete', null, null, null, null, o.id
        from orders o where o.id = ${orderId} and o.missing_documents_validated_at is not null
      union all
      select d.received_at, 'letter', 'received', d.sender, d.kind, case when d.deleted then 'deleted' end, d.pages, d.id
        from documents d where d.order_id = ${orderId}
      union all
      select h.at, 'letter', 'forwarded', d.sender, h.detail, null, null, h.id
        from letter_history h join documents d on d.id = h.document_id where d.order_id = ${orderId} and h.kind = 'forwarded'
      union all
      select p.received_at, 'package', 'received', p.sender, p.carrier, p.status, null, p.id from packages p where p.order_id = ${orderId}
      union all
      select r.created_at, 'courierRequest', r.kind, r.status, null, null, r.letter_count, r.id
        from courier_requests r where r.order_id = ${orderId}
      union all
      select i.date, 'invoice', 'issued', i.number, null, null, i.amount_incl_tax_cents, i.id from invoices i where i.order_id = ${orderId}
      union all
      select i.paid_at, 'payment', 'paid', i.number, i.payment_reference, null, i.amount_incl_tax_cents, i.id
        from invoices i where i.order_id = ${orderId} and i.paid_at is not null
      union all
      select n.date, 'creditNote', 'issued', n.number, null, null, n.amount_incl_tax_cents, n.id from credit_notes n where n.order_id = ${orderId}
      union all
      select q.confirmed_at, 'subscription', 'option', q.plan_id, null, null, null, q.id
        from option_requests q where q.order_id = ${orderId} and q.confirmed_at is not null
      union all
      select e.issued_at, 'certificate', 'issued', e.code, null, null, null, e.id from certificates e where e.order_id = ${orderId}
      union all
      select r.created_at, 'problem', 'reported', r.message, u.firstname || ' ' || u.lastname, null, null, r.id
        from problem_reports r join users u on u.id = r.user_id where r.order_id = ${orderId}
      union all
      select t.created_at, 'termination', 'requested', t.reason, u.firstname || ' ' || u.lastname, t.date || '|' || coalesce(t.comment, ''),
          null, t.id
        from termination_requests t join users u on u.id = t.user_id where t.order_id = ${orderId}
      union all
      select step.at, 'formality', step.name, l.kind, null, null, null, l.id
        from legal_submissions l
        cross join lateral (values ('Reçue', l.created_at), ('En cours', l.started_at), ('Déposée au greffe', l.filed_at),
          ('Terminée', l.completed_at)) as step (name, at)
        where l.order_id = ${orderId} and step.at is not null
      union all
      select s.created_at, 'people', 'collaboratorAdded', s.email, null, null, null, s.id from shares s where s.order_id = ${orderId}
      union all
      select s.accepted_at, 'people', 'collaboratorAccepted', s.email, null, null, null, s.id
        from shares s where s.order_id = ${orderId} and s.accepted_at is not null
      union all
      select m.created_at, 'people', 'representativeAdded', m.firstname || ' ' || m.lastname, null, null, null, m.id
        from mandataires m where m.order_id = ${orderId}
      union all
      select j.at, 'journal', j.action, j.summary,
          coalesce(op.name, case j.system_actor when 'retention' then ${SYSTEM_ACTOR_LABELS.retention}
            when 'customer' then ${SYSTEM_ACTOR_LABELS.customer} end), k.name, null, j.id
        from journal j left join operators op on op.id = j.operator_id left join api_keys k on k.id = j.api_key_id
        where j.order_id = ${orderId}
    ) as timeline
    order by at desc, kind, what, seq desc
    limit ${page.limit} offset ${page.offset}`.execute(db)
  return rows
}

/** An order whose SIREN has these nine digits (however it was written), the oldest one. */
export function findOrderBySirenDigits(db: Db, digits: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'raison_sociale'])
    .where(sql<string>`regexp_replace(coalesce(siren, ''), '\\D', '', 'g')`, '=', digits)
    .orderBy('id')
    .executeTakeFirst()
}

/**
 * Orders are made one at a time (a transaction-scoped advisory lock): the check that no order has the SIREN and the
 * owner's account found or made hold until the order commits. New clients are few a day; the wait is nothing.
 */
export async function holdNewClientLock(tx: Transaction<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('portail:nouveau-client'))`.execute(tx)
}

export interface NewClientOrder {
  ownerId: number
  raisonSociale: string
  siren: string
  legalForm: string
  status: string
  startsOn: string
  subscriptionId: string
  domiciliationAddress: string
  now: Date
}

/** The order and its contract (each order has one; its Kbis and forwarding address come later). */
export async function insertClientOrder(tx: Transaction<Database>, order: NewClientOrder): Promise<number> {
  const row = await tx
    .insertInto('orders')
    .values({
      owner_id: order.ownerId,
      raison_sociale: order.raisonSociale,
      order_date: order.now,
      status: order.status,
      has_kbis: false,
      subscription_id: order.subscriptionId,
      siren: order.siren,
      legal_form: order.legalForm,
      domiciliation_address: order.domiciliationAddress,
      starts_on: order.startsOn,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await tx.insertInto('contracts').values({ order_id: row.id }).execute()
  return row.id
}

/** A customer's account whose password is yet to be chosen (through a link mailed to the address). */
export async function insertClientUser(
  tx: Transaction<Database>,
  user: { email: string; firstname: string; lastname: string; unusablePasswordHash: string; paymentCustomerId: string },
): Promise<number> {
  const row = await tx
    .insertInto('users')
    .values({
      email: user.email,
      firstname: user.firstname,
      lastname: user.lastname,
      password_hash: user.unusablePasswordHash,
      payment_customer_id: user.paymentCustomerId,
      // Typed by an operator, not proven yet: following the invitation's link proves it.
      email_verified: false,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}
