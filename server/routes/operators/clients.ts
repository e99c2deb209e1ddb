// The back office's Clients: the search, an order's page and its timeline (every operator), and « Nouveau client »
// (administrators), which makes the owner's account (or finds it), the order 'En attente de KBIS' and its subscription,
// journaled in the order's transaction; the owner is invited to choose a password through the portal's reset link.
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts'
import type { ClientOrder, ClientSearchResult, NewClientBody, TimelineEntry } from '../../contract/operators.ts'
import { formatSiren, isValidSiren, SIREN_INVALID, sirenDigits } from '../../contract/rules/company.ts'
import {
  clientOrderLists,
  findClientOrder,
  findOrderBySirenDigits,
  holdNewClientLock,
  insertClientOrder,
  insertClientUser,
  listClients,
  orderTimeline,
  searchClients,
  type ClientSearch,
  type ClientSearchRow,
  type TimelineRow,
} from '../../db/repositories/operators-clients.ts'
import { recordJournal } from '../../db/repositories/operators-journal.ts'
import { findUserByEmail, createPasswordResetToken, keepPaymentCustomerId } from '../../db/repositories/session.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { hashPassword, randomToken } from '../../lib/crypto.ts'
import { addDays, longDate, parisDay } from '../../lib/time.ts'
import { eurosText } from '../../services/events.ts'
import { legalFormalityLabels } from '../../services/legal-formalities.ts'
import { plans, optionPlanId } from '../../services/plans.ts'
import type { Mail } from '../../services/mailer.ts'
import type { LegalSubmissionKind } from '../../contract/company.ts'
import { parisMidnight } from './journal.ts'

export const CLIENTS_PAGE_SIZE = 20
export const TIMELINE_PAGE_SIZE = 50
/** The status the portal shows the Kbis banner for (spec §9, « Kbis statuses »): a new order waits for its Kbis. */
export const NEW_CLIENT_STATUS = 'En attente de KBIS'
/** How long the owner's first link to choose a password lasts (a reset link asked later lasts an hour). */
export const CLIENT_INVITATION_DAYS = 7

export const clientMessages = {
  searchTooShort: 'Saisissez au moins 2 caractères pour chercher un client.',
  sirenTaken: (raisonSociale: string, orderId: number) =>
    `Une domiciliation existe déjà pour ce SIREN : ${raisonSociale} (commande n° ${orderId}). Ouvrez sa fiche plutôt que d’en créer une autre.`,
  startTooEarly: 'La date de début ne peut pas être passée : choisissez aujourd’hui ou un jour à venir.',
  startTooLate: 'La date de début ne peut pas être à plus d’un an.',
  noAddress: 'Indiquez l’adresse de domiciliation (« domiciliationAddress ») : aucune domiciliation n’en donne encore une.',
  sameTime: 'Un compte vient d’être créé avec cette adresse e-mail au même moment : réessayez, la domiciliation y sera rattachée.',
  created: (raisonSociale: string, email: string) =>
    `${raisonSociale} est créée, en attente de son Kbis. ${email} a reçu un e-mail pour choisir son mot de passe.`,
  attached: (raisonSociale: string, email: string) =>
    `${raisonSociale} est créée, en attente de son Kbis, et rattachée au compte existant de ${email}, qui en est averti.`,
  notNotified: ' L’e-mail n’a pas pu partir : le client peut utiliser « Mot de passe oublié ? » sur la page de connexion.',
}

// --- The search

/** What an operator typed, as the repository searches it; a French 400 for less than two characters. */
export function clientSearchOf(q: string): ClientSearch {
  const text = q.replace(/[\s\u00a0\u202f]+/g, ' ').trim()
  const number = /^(?:n[°o]\s*|#\s*)?(\d{1,9})$/i.exec(text)?.[1]
  // An order number may be one digit; anything else, two characters at least.
  if (text.length < 2 && !number) throw badRequest(clientMessages.searchTooShort, 'SEARCH_TOO_SHORT')
  const digits = /^[\d ]+$/.test(text) ? text.replace(/ /g, '') : null
  return {
    text: text.replace(/[\\%_]/g, (c) => `\\${c}`),
    digits: digits && digits.length >= 3 && digits.length <= 9 ? digits : null,
    orderNumber: number ? Number(number) : null,
  }
}

const toSearchResult = (row: ClientSearchRow): ClientSearchResult => {
  const matches = typeof row.matches === 'string' ? JSON.parse(row.matches) : (row.matches ?? [])
  return {
    orderId: row.id,
    raisonSociale: row.raison_sociale,
    siren: row.siren === null ? null : formatSiren(row.siren),
    legalForm: row.legal_form,
    status: row.status,
    orderDate: new Date(row.order_date).toISOString(),
    owner: { userId: row.owner_id, name: `${row.firstname} ${row.lastname}`, email: row.email },
    matches,
  }
}

// --- The timeline

const iso = (value: Date | string) => new Date(value).toISOString()
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value))
const plural = (n: number, word: string) => `${n} ${word}${n > 1 ? 's' : ''}`
const dayText = (day: string) => longDate.format(new Date(`${day}T12:00:00Z`))

/** One row of the timeline as an operator reads it: a short French label, a detail, who did it. */
export function toTimelineEntry(row: TimelineRow): TimelineEntry {
  const at = iso(row.at)
  const entry = (label: string, detail: string | null = null, by: string | null = null): TimelineEntry => ({
    at,
    kind: row.kind as TimelineEntry['kind'],
    label,
    detail,
    by,
  })
  const amount = row.n === null ? '' : eurosText(row.n)
  switch (`${row.kind}.${row.what}`) {
    case 'order.created':
      return entry('Domiciliation commandée', `Statut actuel : ${row.a}`)
    case 'contract.signed':
      return entry('Contrat de domiciliation signé')
    case 'document.kbisFiled':
      return entry('Kbis déposé')
    case 'document.kbisValidated':
      return entry('Kbis validé')
    case 'document.identityUploaded':
      return entry(`Justificatif déposé : ${row.a}`, row.b)
    case 'document.identityComplete':
      return entry('Justificatifs d’identité complets')
    case 'letter.received':
      return entry(
        `Courrier reçu de ${row.a}`,
        `${row.b}, ${plural(row.n ?? 1, 'page')}${row.c === 'deleted' ? ' — supprimé par le client' : ''}`,
      )
    case 'letter.forwarded':
      return entry(`Courrier de ${row.a} réexpédié`, row.b)
    case 'package.received':
      return entry(`Colis reçu de ${row.a}`, `${row.b} — ${row.c}`)
    case 'courierRequest.réexpédition':
      return entry(`Demande de réexpédition (${plural(row.n ?? 0, 'courrier')})`, row.a === 'traitée' ? 'Traitée' : 'En attente')
    case 'courierRequest.scan':
      return entry(`Demande de numérisation (${plural(row.n ?? 0, 'courrier')})`, row.a === 'traitée' ? 'Traitée' : 'En attente')
    case 'invoice.issued':
      return entry(`Facture ${row.a} émise`, amount)
    case 'payment.paid':
      return entry(`Facture ${row.a} réglée`, row.b ? `${amount} — ${row.b}` : amount)
    case 'creditNote.issued':
      return entry(`Avoir ${row.a} émis`, amount)
    case 'subscription.option':
      return entry(`Option ajoutée : ${plans[row.a ?? '']?.nickname ?? row.a}`)
    case 'certificate.issued':
      return entry('Attestation de domiciliation délivrée', row.a)
    case 'problem.reported':
      return entry('Problème signalé', row.a, row.b)
    case 'termination.requested': {
      const [date, comment] = (row.c ?? '|').split('|')
      return entry(`Résiliation demandée au ${dayText(date!)}`, comment ? `${row.a} — ${comment}` : row.a, row.b)
    }
    case 'people.collaboratorAdded':
      return entry(`Collaborateur ajouté : ${row.a}`)
    case 'people.collaboratorAccepted':
      return entry(`Invitation acceptée par ${row.a}`)
    case 'people.representativeAdded':
      return entry(`Mandataire ajouté : ${row.a}`)
    default:
      if (row.kind === 'formality')
        return entry(`Formalité « ${legalFormalityLabels[row.a as LegalSubmissionKind] ?? row.a} » : ${row.what}`)
      if (row.kind === 'journal') return entry(row.a ?? row.what, null, row.b ?? (row.c ? `clé d’API « ${row.c} »` : 'serveur'))
      return entry(`${row.kind} ${row.what}`)
  }
}

// --- « Nouveau client »

/** The start day: today (Paris) or within a year; a French 400 otherwise. */
export function startDayOf(startDate: string, now: Date): string {
  const today = parisDay(now)
  if (startDate < today) throw badRequest(clientMessages.startTooEarly, 'START_DATE')
  if (startDate > parisDay(addDays(now, 366))) throw badRequest(clientMessages.startTooLate, 'START_DATE')
  return startDate
}

/** The plan and its options at the plan's interval: the provider's price ids. */
export function planIdsOf(body: Pick<NewClientBody, 'plan' | 'options'>): string[] {
  const interval = plans[body.plan]!.interval
  return [body.plan, ...(body.options ?? []).map((option) => optionPlanId(option, interval)!)]
}

/** The owner's invitation: the portal's set-password page with a reset token (the same table and page as « Mot de passe oublié »). */
export function clientInvitationMail(
  owner: { email: string; firstname: string },
  raisonSociale: string,
  link: string,
  brandName: string,
): Mail {
  return {
    to: owner.email,
    subject: `${brandName} : votre espace client pour ${raisonSociale}`,
    text: `Bonjour ${owner.firstname},\n\nVotre domiciliation de ${raisonSociale} est enregistrée. Pour ouvrir votre espace client, choisissez votre mot de passe avec ce lien (valable ${CLIENT_INVITATION_DAYS} jours, une seule fois) :\n${link}\n\nDéposez ensuite le Kbis de la société dans votre espace client : la domiciliation l’attend.\n\nSi le lien a expiré, demandez-en un nouveau avec « Mot de passe oublié ? » sur la page de connexion.\n\n${brandName}`,
    link,
  }
}

/** An existing customer's notice: a new domiciliation is in their account (they already have a password). */
export function clientAttachedMail(
  owner: { email: string; firstname: string },
  raisonSociale: string,
  link: string,
  brandName: string,
): Mail {
  return {
    to: owner.email,
    subject: `${brandName} : ${raisonSociale} est ajoutée à votre espace client`,
    text: `Bonjour ${owner.firstname},\n\nLa domiciliation de ${raisonSociale} est ajoutée à votre espace client. Connectez-vous pour y déposer le Kbis de la société :\n${link}\n\nSi vous n’avez pas encore choisi de mot de passe, utilisez « Mot de passe oublié ? » sur la page de connexion.\n\n${brandName}`,
    link,
  }
}

export function clientRoutes(define: DefineRoute, deps: AppDeps) {
  const { db, clock, config, payments, mailer } = deps

  define('operatorClientSearch', async ({ query }) => {
    const page = query.page ?? 1
    const window = { offset: (page - 1) * CLIENTS_PAGE_SIZE, limit: CLIENTS_PAGE_SIZE }
    const rows = query.q === undefined ? await listClients(db, window) : await searchClients(db, clientSearchOf(query.q), window)
    const total = rows.length ? Number(rows[0]!.total) : 0
    return { results: rows.map(toSearchResult), page, pageSize: CLIENTS_PAGE_SIZE, total }
  })

  define('operatorClientOrder', async ({ params, req }) => {
    const order = await findClientOrder(db, params.id)
    if (!order) throw notFound('Domiciliation')
    const lists = await clientOrderLists(db, order.id)
    let subscription: ClientOrder['subscription'] = null
    let subscriptionUnavailable = false
    if (order.subscription_id) {
      try {
        const found = await payments.getSubscription(order.subscription_id)
        subscription = found && {
          id: found.id,
          status: found.status,
          currentPeriodEnd: new Date(found.current_period_end * 1000).toISOString(),
          cancelAtPeriodEnd: found.cancel_at_period_end,
          items: found.items.data.map((item) => ({
            planId: item.plan.id,
            label: item.plan.nickname,
            amountCents: item.plan.amount * item.quantity,
            interval: item.plan.interval,
          })),
        }
      } catch (error) {
        req.log.warn({ err: error, orderId: order.id }, 'abonnement illisible chez le fournisseur de paiement')
        subscriptionUnavailable = true
      }
    }
    const required = typeof order.missing_documents === 'string' ? JSON.parse(order.missing_documents) : (order.missing_documents ?? [])
    const forwarding = [
      order.adresse_postale_expedition,
      order.adresse_complement_postale_expedition,
      [order.code_postale_expedition, order.ville_postale_expedition].filter(Boolean).join(' '),
      order.pays_postale_expedition,
    ].filter((part) => part?.trim())
    return {
      id: order.id,
      raisonSociale: order.raison_sociale,
      siren: order.siren === null ? null : formatSiren(order.siren),
      legalForm: order.legal_form,
      status: order.status,
      orderDate: iso(order.order_date),
      startsOn: order.starts_on,
      domiciliationAddress: order.domiciliation_address,
      owner: {
        userId: order.owner_id,
        firstname: order.firstname,
        lastname: order.lastname,
        email: order.email,
        phone: order.phone,
        emailVerified: order.email_verified,
        createdAt: iso(order.owner_created_at),
      },
      collaborators: lists.collaborators.map((share) => ({
        shareId: share.id,
        email: share.email,
        name: share.firstname === null ? null : `${share.firstname} ${share.lastname}`,
        state: share.user_id === null ? ('invited' as const) : ('active' as const),
        createdAt: iso(share.created_at),
      })),
      representatives: lists.representatives.map((m) => ({
        id: m.id,
        firstname: m.firstname,
        lastname: m.lastname,
        email: m.email,
        phone: m.phone,
        createdAt: iso(m.created_at),
      })),
      subscription,
      subscriptionUnavailable,
      termination: lists.termination
        ? {
            requestedAt: iso(lists.termination.created_at),
            date: lists.termination.date,
            reason: lists.termination.reason,
            comment: lists.termination.comment,
          }
        : null,
      invoices: lists.invoices.map((invoice) => ({
        id: invoice.id,
        number: invoice.number,
        date: iso(invoice.date),
        amountExclTaxCents: invoice.amount_excl_tax_cents,
        amountInclTaxCents: invoice.amount_incl_tax_cents,
        paidAt: isoOrNull(invoice.paid_at),
      })),
      creditNotes: lists.creditNotes.map((note) => ({
        id: note.id,
        number: note.number,
        date: iso(note.date),
        amountInclTaxCents: note.amount_incl_tax_cents,
      })),
      documents: {
        kbis: {
          contractId: order.contract_id,
          filed: order.kbis_file_key !== null,
          filedAt: isoOrNull(order.kbis_filed_at),
          validatedAt: isoOrNull(order.kbis_validated_at),
        },
        identity: {
          required: (required as { type: string; label: string }[]).map(({ type, label }) => ({ type, label })),
          validatedAt: isoOrNull(order.missing_documents_validated_at),
          uploaded: lists.uploaded.map((d) => ({
            id: d.id,
            type: d.type,
            label: d.label,
            fileName: d.file_name,
            uploadedAt: iso(d.uploaded_at),
          })),
        },
      },
      forwardingAddress: forwarding.length ? forwarding.join(', ') : null,
      counts: {
        letters: Number(lists.counts.letters ?? 0),
        packagesWaiting: Number(lists.counts.packages_waiting ?? 0),
        pendingCourierRequests: Number(lists.counts.pending_courier_requests ?? 0),
      },
    }
  })

  define('operatorOrderTimeline', async ({ params, query }) => {
    if (!(await findClientOrder(db, params.id))) throw notFound('Domiciliation')
    const page = query.page ?? 1
    const rows = await orderTimeline(db, params.id, { offset: (page - 1) * TIMELINE_PAGE_SIZE, limit: TIMELINE_PAGE_SIZE })
    return {
      entries: rows.map(toTimelineEntry),
      page,
      pageSize: TIMELINE_PAGE_SIZE,
      total: rows.length ? Number(rows[0]!.total) : 0,
    }
  })

  define('operatorCreateClient', async ({ body, operator, req }) => {
    const now = clock.now()
    const digits = sirenDigits(body.siren)
    if (!digits || !isValidSiren(body.siren)) throw badRequest(SIREN_INVALID, 'SIREN_INVALID')
    const siren = formatSiren(digits)
    const startsOn = startDayOf(body.startDate, now)
    const planIds = planIdsOf(body)
    const raisonSociale = body.raisonSociale.trim()
    const owner = {
      ...body.owner,
      email: body.owner.email.trim(),
      firstname: body.owner.firstname.trim(),
      lastname: body.owner.lastname.trim(),
    }
    const domiciliationAddress = await addressOf(deps, body.domiciliationAddress)

    // Checked before the payment provider is asked, then again under the lock.
    const taken = await findOrderBySirenDigits(db, digits)
    if (taken) throw conflict(clientMessages.sirenTaken(taken.raison_sociale, taken.id))
    const known = await findUserByEmail(db, owner.email)
    // Outside the transaction (the provider is another service); a subscription that no order ends up naming is cancelled.
    const customerId = known?.payment_customer_id ?? (await payments.createCustomer(owner.email, `${owner.firstname} ${owner.lastname}`))
    const subscriptionId = await payments.createSubscription({
      customerId,
      planIds,
      start: parisMidnight(startsOn),
      idempotencyKey: `nouveau-client:${digits}:${randomToken()}`,
    })
    // Hashed before the transaction: argon2 takes its tens of milliseconds outside the lock.
    const unusablePasswordHash = await hashPassword(randomToken())
    const made = await db
      .transaction()
      .execute(async (tx) => {
        await holdNewClientLock(tx)
        const again = await findOrderBySirenDigits(tx, digits)
        if (again) throw conflict(clientMessages.sirenTaken(again.raison_sociale, again.id))
        const existing = await findUserByEmail(tx, owner.email)
        let userId: number
        let invitationToken: string | null = null
        if (existing) {
          userId = existing.id
          if (!existing.payment_customer_id) await keepPaymentCustomerId(tx, existing.id, customerId)
        } else {
          userId = await insertClientUser(tx, { ...owner, unusablePasswordHash, paymentCustomerId: customerId })
          invitationToken = await createPasswordResetToken(tx, userId, addDays(now, CLIENT_INVITATION_DAYS))
        }
        const orderId = await insertClientOrder(tx, {
          ownerId: userId,
          raisonSociale,
          siren,
          legalForm: body.legalForm,
          status: NEW_CLIENT_STATUS,
          startsOn,
          subscriptionId,
          domiciliationAddress,
          now,
        })
        const ownerRow = existing ?? { email: owner.email, firstname: owner.firstname, lastname: owner.lastname }
        await recordJournal(tx, {
          actor: { operatorId: operator.id },
          action: 'client.created',
          orderId,
          summary:
            `Nouveau client : ${raisonSociale} (SIREN ${siren}), titulaire ${ownerRow.firstname} ${ownerRow.lastname} ` +
            `<${ownerRow.email}> (${existing ? 'compte existant' : 'compte créé'})`,
          after: { orderId, siren, legalForm: body.legalForm, planIds, startsOn, ownerId: userId, newAccount: !existing, subscriptionId },
          at: now,
        })
        return { orderId, userId, invitationToken, owner: ownerRow }
      })
      .catch(async (error: unknown) => {
        await payments
          .cancelSubscription(subscriptionId)
          .catch((cancelError: unknown) =>
            req.log.error(
              { err: cancelError, subscriptionId },
              'abonnement sans domiciliation : à annuler chez le fournisseur de paiement',
            ),
          )
        if (isUniqueViolation(error)) throw new HttpError(409, clientMessages.sameTime, 'CONFLICT')
        throw error
      })

    const mail = made.invitationToken
      ? clientInvitationMail(made.owner, raisonSociale, `${config.publicUrl}/set-password/${made.invitationToken}`, config.brandName)
      : clientAttachedMail(made.owner, raisonSociale, `${config.publicUrl}/login`, config.brandName)
    const ownerNotified = await mailer.send(mail).then(
      () => true,
      (error: unknown) => {
        req.log.error({ err: error, orderId: made.orderId }, 'e-mail au titulaire du nouveau client non envoyé')
        return false
      },
    )
    const message =
      (made.invitationToken ? clientMessages.created : clientMessages.attached)(raisonSociale, made.owner.email) +
      (ownerNotified ? '' : clientMessages.notNotified)
    return {
      orderId: made.orderId,
      status: NEW_CLIENT_STATUS,
      owner: {
        userId: made.userId,
        email: made.owner.email,
        name: `${made.owner.firstname} ${made.owner.lastname}`,
        newAccount: made.invitationToken !== null,
      },
      subscriptionId,
      ownerNotified,
      message,
    }
  })
}

/** The address given, or the one most orders have (the provider's usual one); a French 400 when there is none yet. */
async function addressOf({ db }: Pick<AppDeps, 'db'>, given: string | undefined): Promise<string> {
  if (given?.trim()) return given.trim()
  const usual = await db
    .selectFrom('orders')
    .select('domiciliation_address')
    .groupBy('domiciliation_address')
    .orderBy((eb) => eb.fn.countAll(), 'desc')
    .orderBy('domiciliation_address')
    .executeTakeFirst()
  if (!usual) throw badRequest(clientMessages.noAddress, 'NO_ADDRESS')
  return usual.domiciliation_address
}
