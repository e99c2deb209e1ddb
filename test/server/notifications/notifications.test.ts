// Notifications: who sees which event, each person's read marks, events committed with their
// action (and never for a rolled-back one), the live stream (also from a second server instance on the
// same database), e-mail preferences, the daily digest once, and each letter's history with its actors.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { FastifyInstance } from 'fastify'
import type { ServerResponse } from 'node:http'
import net from 'node:net'
import { buildApp } from '../../../server/app.ts'
import { connect, type DbHandle } from '../../../server/db/connect.ts'
import type { AppDeps } from '../../../server/deps.ts'
import { sql } from 'kysely'
import { migrations } from '../../../server/db/migrate.ts'
import { MISSED_MAX, MISSED_PAGE } from '../../../server/routes/notifications/index.ts'
import { recordEvent } from '../../../server/services/events.ts'
import { HEARTBEAT_MS, notificationHub, type LiveStream } from '../../../server/services/notification-stream.ts'
import { STREAMS_PER_USER, type StreamLimitOptions } from '../../../server/services/notification-stream-limit.ts'
import { sha256 } from '../../../server/lib/crypto.ts'
import type { PortalNotification } from '../../../server/contract/notifications.ts'
import { DIGEST_SETTLE_MS, digestSubject, sendDailyDigests } from '../../../server/services/digest.ts'
import { lockWaiters, terminateBackends } from '../../util/postgres.ts'
import { call, callBearer, eventually, login, TEST_OPERATOR_TOKEN } from '../../util/server.ts'
import { demoContext, type DemoContext } from '../../util/server-samples.ts'

type Ctx = DemoContext

const dataUrl = (bytes: Buffer) => `data:application/pdf;base64,${bytes.toString('base64')}`

function operator(app: FastifyInstance, method: 'POST' | 'PUT', url: string, payload: object, headers: Record<string, string> = {}) {
  return app.inject({ method, url, headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}`, ...headers }, payload })
}

/** The operators' Kbis file as read for checking: its ETag names the file. */
async function readKbis(app: FastifyInstance, contractId: number): Promise<string> {
  const res = await app.inject({
    method: 'GET',
    url: `/api/operator/contracts/${contractId}/kbis`,
    headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
  })
  assert.is(res.statusCode, 200, res.body)
  assert.is(res.rawPayload.subarray(0, 5).toString(), '%PDF-')
  return res.headers.etag as string
}

/** An operator reads the Kbis, then validates the file read. */
async function validateKbis(app: FastifyInstance, contractId: number, tag?: string) {
  return operator(
    app,
    'PUT',
    `/api/operator/contracts/${contractId}/kbis-status`,
    { status: 'validé' },
    { 'if-match': tag ?? (await readKbis(app, contractId)) },
  )
}

async function ingest(app: FastifyInstance, orderId: number, sender: string, pdf: Buffer) {
  const res = await operator(app, 'POST', `/api/operator/domiciliation-orders/${orderId}/documents`, { sender, file: dataUrl(pdf) })
  assert.is(res.statusCode, 200, res.body)
  return res.json().document as { id: number }
}

interface Notice {
  id: number
  title: string
  body: string
  orderId: number
  kind: string
  link: string
  read: boolean
}

async function listOf(app: FastifyInstance, token: string): Promise<{ unread: number; notifications: Notice[] }> {
  const res = await call(app, token, 'GET', '/api-protected/notifications')
  assert.is(res.statusCode, 200, res.body)
  return res.json()
}

/** An open SSE stream read as a browser would (fetch, token in the header): its events and comments. */
async function openStream(base: string, token: string, headers: Record<string, string> = {}) {
  const controller = new AbortController()
  const res = await fetch(`${base}/api-protected/notifications/stream`, {
    headers: { ...headers, apitoken: token },
    signal: controller.signal,
  })
  assert.is(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', 'text/event-stream')
  const events: Notice[] = []
  const comments: string[] = []
  /** Events of other types than `notification` (`replaced`), with their data. */
  const others: { event: string; data: unknown; block: string }[] = []
  let wake = () => {}
  let ended = false
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  const reading = (async () => {
    let buffer = ''
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        buffer += value
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          if (block.startsWith(':')) comments.push(block.slice(1).trim())
          const data = /^data: (.*)$/m.exec(block)
          if (/^event: notification$/m.test(block) && data) {
            const notice = JSON.parse(data[1]!) as Notice
            assert.ok(block.startsWith(`id: ${notice.id}\n`), 'each event carries its notification id')
            events.push(notice)
          } else if (/^event: /m.test(block) && data) {
            others.push({ event: /^event: (.*)$/m.exec(block)![1]!, data: JSON.parse(data[1]!), block })
          }
          wake()
        }
      }
    } catch {
      // aborted by the test
    }
    ended = true
    wake()
  })()
  /** Resolves when `found` holds, fails after timeoutMs: no polling, each chunk wakes it. */
  const until = <T>(found: () => T | undefined, timeoutMs = 2000, what = 'un événement') =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what} n’est pas arrivé en ${timeoutMs} ms`)), timeoutMs)
      const check = () => {
        const value = found()
        if (value !== undefined) {
          clearTimeout(timer)
          resolve(value)
        } else if (ended) {
          clearTimeout(timer)
          reject(new Error('flux fermé'))
        } else {
          wake = check
        }
      }
      check()
    })
  return {
    events,
    comments,
    others,
    instance: res.headers.get('x-instance'),
    next: (match: (n: Notice) => boolean, timeoutMs = 2000) => until(() => events.find(match), timeoutMs),
    isOpen: () => !ended,
    closed: () => until(() => (ended ? true : undefined), 2000, 'la fermeture'),
    close: async () => {
      controller.abort()
      await reading
    },
  }
}

const setup = async (ctx: Ctx) => void (await demoContext(ctx, 'Avis'))

// --- Who sees what, read marks per person

const access = suite<Ctx>('the bell: access and read marks')
access.before(setup)
access.after((ctx) => ctx.t?.close())

access('the demo opens with its past: every event of the seed noted, read when older than a week or a letter already read', async (ctx) => {
  const db = ctx.t.deps.db
  const weekAgo = ctx.t.clock.now().getTime() - 7 * 86_400_000
  const rows = await db
    .selectFrom('notifications')
    .innerJoin('orders', 'orders.id', 'notifications.order_id')
    .leftJoin('documents', 'documents.id', 'notifications.document_id')
    .leftJoin('notification_reads', (join) =>
      join.onRef('notification_reads.notification_id', '=', 'notifications.id').onRef('notification_reads.user_id', '=', 'orders.owner_id'),
    )
    .select([
      'notifications.kind',
      'notifications.created_at',
      'documents.read as letter_read',
      'notification_reads.user_id as read_by_owner',
    ])
    .where('orders.raison_sociale', '=', 'Boulangerie des Lilas SAS')
    .execute()
  const letters = await db
    .selectFrom('documents')
    .innerJoin('orders', 'orders.id', 'documents.order_id')
    .select('documents.id')
    .where('orders.raison_sociale', '=', 'Boulangerie des Lilas SAS')
    .where('documents.deleted', '=', false)
    .execute()
  assert.is(rows.filter((r) => r.kind === 'letter').length, letters.length, 'one notification per letter')
  assert.ok(rows.some((r) => r.kind === 'invoice') && rows.some((r) => r.kind === 'package'), 'invoices and packages too')
  for (const row of rows) {
    const expected = row.created_at.getTime() < weekAgo || row.letter_read === true
    assert.is(row.read_by_owner !== null, expected, `${row.kind} du ${row.created_at.toISOString()}`)
  }
  assert.ok(
    rows.some((r) => r.read_by_owner === null),
    'a few stay unread',
  )
})

access('a letter is announced to the order’s owner and collaborators only, unread first', async (ctx) => {
  const letter = await ingest(ctx.t.app, ctx.ids.order, 'URSSAF Île-de-France', ctx.pdf)
  const camille = await listOf(ctx.t.app, ctx.camille)
  const first = camille.notifications[0]!
  assert.equal(
    [first.title, first.kind, first.orderId, first.read],
    ['Nouveau courrier de URSSAF Île-de-France', 'letter', ctx.ids.order, false],
  )
  assert.is(first.link, `/mes-courriers/courriers?domiciliation=${ctx.ids.order}&courrier=${letter.id}`)
  const julien = await listOf(ctx.t.app, ctx.julien)
  assert.ok(
    julien.notifications.some((n) => n.id === first.id),
    'the collaborator of the Boulangerie sees it',
  )
  const sophie = await listOf(ctx.t.app, ctx.sophie)
  assert.not.ok(
    sophie.notifications.some((n) => n.orderId === ctx.ids.order),
    'a stranger sees nothing of it',
  )
  const unreadFirst = camille.notifications.findIndex((n) => n.read)
  assert.ok(unreadFirst === -1 || camille.notifications.slice(unreadFirst).every((n) => n.read), 'unread first')
  assert.ok(camille.notifications.length <= 50)
})

access('a collaborator sees only the shared orders’ events', async (ctx) => {
  await ingest(ctx.t.app, ctx.atelier, 'Greffe du tribunal', ctx.pdf)
  const camille = await listOf(ctx.t.app, ctx.camille)
  assert.ok(camille.notifications.some((n) => n.orderId === ctx.atelier))
  const julien = await listOf(ctx.t.app, ctx.julien)
  const julienOrders = new Set(julien.notifications.map((n) => n.orderId))
  assert.not.ok(julienOrders.has(ctx.atelier), 'Atelier Lumière is not shared with Julien')
  assert.ok(julienOrders.has(ctx.ids.sharedOrder) || julienOrders.has(ctx.ids.order))
})

access('read marks are each person’s own; a stranger cannot mark', async (ctx) => {
  const [first] = (await listOf(ctx.t.app, ctx.camille)).notifications.filter((n) => n.orderId === ctx.ids.order && !n.read)
  const before = await listOf(ctx.t.app, ctx.julien)
  const read = await call(ctx.t.app, ctx.camille, 'POST', `/api-protected/notifications/${first!.id}/read`)
  assert.is(read.statusCode, 200, read.body)
  const camille = await listOf(ctx.t.app, ctx.camille)
  assert.is(read.json().unread, camille.unread)
  assert.is(camille.notifications.find((n) => n.id === first!.id)!.read, true)
  const julien = await listOf(ctx.t.app, ctx.julien)
  assert.is(julien.unread, before.unread, 'Julien’s count does not move')
  assert.is(julien.notifications.find((n) => n.id === first!.id)!.read, false)
  const stranger = await call(ctx.t.app, ctx.sophie, 'POST', `/api-protected/notifications/${first!.id}/read`)
  assert.is(stranger.statusCode, 404)
  assert.match(stranger.json().message, 'introuvable')
})

access('"Tout marquer comme lu" for one person only', async (ctx) => {
  const res = await call(ctx.t.app, ctx.camille, 'POST', '/api-protected/notifications/read-all')
  assert.equal(res.json(), { unread: 0 })
  assert.is((await listOf(ctx.t.app, ctx.camille)).unread, 0)
  assert.ok((await listOf(ctx.t.app, ctx.julien)).unread > 0)
})

access('a package, a formality moved on and a Kbis validated are announced', async (ctx) => {
  const parcel = await operator(ctx.t.app, 'POST', `/api/operator/domiciliation-orders/${ctx.ids.order}/packages`, {
    carrier: 'Colissimo',
    sender: 'Moulins Bourgeois',
  })
  assert.is(parcel.statusCode, 200)
  const moved = await operator(ctx.t.app, 'PUT', `/api/operator/legal-submissions/${ctx.ids.legalSubmission}/status`, {
    status: 'Déposée au greffe',
  })
  assert.is(moved.statusCode, 200)
  const kbis = await validateKbis(ctx.t.app, ctx.ids.contract)
  assert.is(kbis.statusCode, 200, kbis.body)
  const titles = (await listOf(ctx.t.app, ctx.camille)).notifications.filter((n) => !n.read).map((n) => [n.kind, n.title])
  assert.ok(titles.some(([k, t]) => k === 'package' && t === 'Nouveau colis'))
  assert.ok(
    titles.some(([k, t]) => k === 'formality' && /Déposée au greffe/.test(t!)),
    'Studio Nuage is shared with Camille',
  )
  assert.ok(titles.some(([k, t]) => k === 'kbis' && t === 'Kbis validé'))
  const again = await validateKbis(ctx.t.app, ctx.ids.contract)
  assert.is(again.statusCode, 409)
})

access(
  'a Kbis validated: the bell leads to Attestation et contrats, whose contract tells the date; a new Kbis awaits the check again',
  async (ctx) => {
    const contractOf = async () =>
      (await callBearer(ctx.t.app, ctx.camille, 'GET', '/api-protected/contracts'))
        .json()
        .find((c: { id: number }) => c.id === ctx.ids.contract) as { kbis: string | null; kbisValidatedAt: string | null }
    await ctx.t.deps.db.updateTable('contracts').set({ kbis_validated_at: null }).where('id', '=', ctx.ids.contract).execute()
    assert.is((await contractOf()).kbisValidatedAt, null, 'filed, not yet checked')
    const res = await validateKbis(ctx.t.app, ctx.ids.contract)
    assert.is(res.statusCode, 200, res.body)
    assert.is((await contractOf()).kbisValidatedAt, res.json().validatedAt)
    const notice = (await listOf(ctx.t.app, ctx.camille)).notifications.find((n) => n.kind === 'kbis')!
    assert.is(notice.link, '/souscription/attestation-contrats')
    assert.is(notice.body, 'Le justificatif d’immatriculation de Boulangerie des Lilas SAS a été validé.')

    const filed = await callBearer(ctx.t.app, ctx.camille, 'PUT', `/api-protected/contracts/${ctx.ids.contract}`, {
      kbis: dataUrl(ctx.pdf),
    })
    assert.is(filed.statusCode, 200, filed.body)
    assert.is(filed.json().kbisValidatedAt, null, 'the validation was of the file replaced')
    assert.is((await contractOf()).kbisValidatedAt, null)
    assert.is((await validateKbis(ctx.t.app, ctx.ids.contract)).statusCode, 200, 'the new file can be validated')
  },
)

access(
  'only the Kbis the operator read is validated: none read is 428, one replaced since is 412, and neither validates nor announces',
  async (ctx) => {
    const { db } = ctx.t.deps
    await db.updateTable('contracts').set({ kbis_validated_at: null }).where('id', '=', ctx.ids.contract).execute()
    const listed = async () =>
      (
        (
          await ctx.t.app.inject({
            method: 'GET',
            url: '/api/operator/domiciliation-orders',
            headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
          })
        ).json() as { id: number; contractId: number | null; kbis: string }[]
      ).find((o) => o.id === ctx.ids.order)!
    assert.equal(
      [(await listed()).contractId, (await listed()).kbis],
      [ctx.ids.contract, 'à valider'],
      'the operators see which Kbis waits for them',
    )
    const notices = async () => (await listOf(ctx.t.app, ctx.camille)).notifications.filter((n) => n.kind === 'kbis').length
    const before = await notices()

    const unread = await operator(ctx.t.app, 'PUT', `/api/operator/contracts/${ctx.ids.contract}/kbis-status`, { status: 'validé' })
    assert.is(unread.statusCode, 428, unread.body)
    assert.match(unread.json().message, 'If-Match')
    assert.is((await validateKbis(ctx.t.app, ctx.ids.contract, '*')).statusCode, 428, 'any file is no file read')

    const read = await readKbis(ctx.t.app, ctx.ids.contract)
    const filed = await callBearer(ctx.t.app, ctx.camille, 'PUT', `/api-protected/contracts/${ctx.ids.contract}`, {
      kbis: dataUrl(ctx.pdf),
    })
    assert.is(filed.statusCode, 200, filed.body)
    for (const tag of [read, 'W/' + read, '"autre"']) {
      const stale = await validateKbis(ctx.t.app, ctx.ids.contract, tag)
      assert.is(stale.statusCode, 412, `${tag}: ${stale.body}`)
      assert.is(
        stale.json().message,
        'Le client a déposé un autre Kbis depuis celui que vous avez vérifié : vérifiez le nouveau avant de le valider.',
      )
    }
    assert.is(
      (await db.selectFrom('contracts').select('kbis_validated_at').where('id', '=', ctx.ids.contract).executeTakeFirstOrThrow())
        .kbis_validated_at,
      null,
    )
    assert.is(await notices(), before, 'nothing announced')

    const current = await readKbis(ctx.t.app, ctx.ids.contract)
    assert.is.not(current, read, 'each file its own tag')
    assert.is((await validateKbis(ctx.t.app, ctx.ids.contract, `"autre", ${current}`)).statusCode, 200, 'the file read now')
    assert.is((await listed()).kbis, 'validé')
  },
)

access(
  'migration 009: the "Kbis validé" notifications sent before lead to Attestation et contrats too, and nothing else moves',
  async (ctx) => {
    const { db } = ctx.t.deps
    const sent = await db
      .insertInto('notifications')
      .values([
        { order_id: ctx.ids.order, kind: 'kbis', title: 'Kbis validé', body: 'avant', link: '/tableau-de-bord' },
        { order_id: ctx.ids.order, kind: 'letter', title: 'Nouveau courrier', body: 'avant', link: '/tableau-de-bord' },
      ])
      .returning(['id', 'kind'])
      .execute()
    await migrations['009_kbis_notification_link']!.up(db)
    const links = await db
      .selectFrom('notifications')
      .select(['kind', 'link'])
      .where(
        'id',
        'in',
        sent.map((n) => n.id),
      )
      .orderBy('id')
      .execute()
    assert.equal(links, [
      { kind: 'kbis', link: '/souscription/attestation-contrats' },
      { kind: 'letter', link: '/tableau-de-bord' },
    ])
    await db
      .deleteFrom('notifications')
      .where(
        'id',
        'in',
        sent.map((n) => n.id),
      )
      .execute()
  },
)

access('a Kbis not filed cannot be validated, and nothing is announced', async (ctx) => {
  const contract = await ctx.t.deps.db.selectFrom('contracts').select('id').where('order_id', '=', ctx.atelier).executeTakeFirstOrThrow()
  const before = await ctx.t.deps.db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  const res = await validateKbis(ctx.t.app, contract.id, '"aucun"')
  assert.is(res.statusCode, 409)
  assert.match(res.json().message, 'Aucun Kbis')
  const after = await ctx.t.deps.db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  assert.is(after.n, before.n)
})

access.run()

// PostgreSQL only: two operators at once on one company (PGlite runs one statement at a time).
if (process.env.DATABASE_URL) {
  const locks = suite<DemoContext>('two operators at once on one company (PostgreSQL)')
  locks.before(async (ctx) => void (await demoContext(ctx)))
  locks.after((ctx) => ctx.t?.close())

  locks('a Kbis validated while a formality of the same company moves on: both done, no deadlock', async (ctx) => {
    const { db } = ctx.t.deps
    await db.updateTable('contracts').set({ kbis_validated_at: null }).where('id', '=', ctx.ids.contract).execute()
    const order = await db.selectFrom('orders').select(['id', 'owner_id']).where('id', '=', ctx.ids.order).executeTakeFirstOrThrow()
    const formality = await db
      .insertInto('legal_submissions')
      .values({ order_id: order.id, user_id: order.owner_id, kind: 'transfert-siege', comment: null, created_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow()
    const tag = await readKbis(ctx.t.app, ctx.ids.contract)
    // A third transaction holds the events' lock, so that each action reaches it, in this order, and waits.
    const holder = await ctx.t.connectAgain()
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let holding!: () => void
    const held = new Promise<void>((resolve) => {
      holding = resolve
    })
    const holderDone = holder.db.transaction().execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.' || 'portal_events'))`.execute(tx)
      holding()
      await released
    })
    await held
    const waiting = () => lockWaiters(db)
    const waitFor = async (n: number) => {
      for (let i = 0; i < 200 && (await waiting()) < n; i++) await new Promise((r) => setTimeout(r, 20))
    }
    const moved = operator(ctx.t.app, 'PUT', `/api/operator/legal-submissions/${formality.id}/status`, { status: 'En cours' })
    await waitFor(1)
    const validated = validateKbis(ctx.t.app, ctx.ids.contract, tag)
    await waitFor(2)
    assert.is(await waiting(), 2, 'both wait for the events’ lock')
    release()
    await holderDone
    await holder.close()
    const [formalityAnswer, kbisAnswer] = await Promise.all([moved, validated])
    assert.is(formalityAnswer.statusCode, 200, formalityAnswer.body)
    assert.is(kbisAnswer.statusCode, 200, kbisAnswer.body)
  })
  locks.run()
}

// --- The live stream

interface LiveCtx extends Ctx {
  base: string
  second?: { app: FastifyInstance; handle?: DbHandle }
}

const live = suite<LiveCtx>('the live stream (Server-Sent Events on LISTEN/NOTIFY)')
live.before(async (ctx) => {
  await setup(ctx)
  ctx.base = await ctx.t.app.listen({ port: 0, host: '127.0.0.1' })
})
live.after(async (ctx) => {
  await ctx.second?.app.close()
  await ctx.second?.handle?.close()
  await ctx.t.close()
})

live('an ingested letter reaches an open stream within 2 s; a stranger’s stream gets nothing', async (ctx) => {
  const camille = await openStream(ctx.base, ctx.camille)
  const sophie = await openStream(ctx.base, ctx.sophie)
  const letter = await ingest(ctx.t.app, ctx.ids.order, 'Impots.gouv', ctx.pdf)
  const got = await camille.next((n) => n.title === 'Nouveau courrier de Impots.gouv')
  assert.is(got.link, `/mes-courriers/courriers?domiciliation=${ctx.ids.order}&courrier=${letter.id}`)
  assert.is(got.read, false)
  // Sophie's own order's event comes after; had Camille's reached her, it would be there first.
  const sophieOrder = (await call(ctx.t.app, ctx.sophie, 'GET', '/api-protected/my-domiciliation-orders')).json()[0].id
  await ingest(ctx.t.app, sophieOrder, 'Banque Populaire', ctx.pdf)
  await sophie.next((n) => n.title === 'Nouveau courrier de Banque Populaire')
  assert.equal(
    sophie.events.map((n) => n.orderId),
    [sophieOrder],
  )
  await Promise.all([camille.close(), sophie.close()])
})

live('a collaborator’s stream gets the shared order’s events only', async (ctx) => {
  const julien = await openStream(ctx.base, ctx.julien)
  await ingest(ctx.t.app, ctx.atelier, 'Non partagé', ctx.pdf)
  await ingest(ctx.t.app, ctx.ids.order, 'Partagé', ctx.pdf)
  await julien.next((n) => n.title === 'Nouveau courrier de Partagé')
  assert.not.ok(julien.events.some((n) => n.orderId === ctx.atelier))
  await julien.close()
})

live('a rolled-back action announces nothing and leaves no row', async (ctx) => {
  const camille = await openStream(ctx.base, ctx.camille)
  const failed = ctx.t.deps.db.transaction().execute(async (trx) => {
    await recordEvent(trx, { kind: 'letter', orderId: ctx.ids.order, title: 'Annulé', body: '—', link: '/mes-courriers/courriers' })
    throw new Error('l’action échoue après l’événement')
  })
  assert.is(
    await failed.then(
      () => 'validée',
      (error: Error) => error.message,
    ),
    'l’action échoue après l’événement',
  )
  assert.is(await ctx.t.deps.db.selectFrom('notifications').select('id').where('title', '=', 'Annulé').executeTakeFirst(), undefined)
  await ctx.t.deps.db
    .transaction()
    .execute((trx) => recordEvent(trx, { kind: 'invoice', orderId: ctx.ids.order, title: 'Validé', body: '—', link: '/factures' }))
  await camille.next((n) => n.title === 'Validé')
  assert.not.ok(
    camille.events.some((n) => n.title === 'Annulé'),
    'NOTIFY went with the rollback',
  )
  await camille.close()
})

live('an event raised by a second server instance on the same database reaches a stream of the first', async (ctx) => {
  const databaseUrl = process.env.DATABASE_URL
  let deps: AppDeps = ctx.t.deps
  let handle: DbHandle | undefined
  if (databaseUrl) {
    // Another process would have its own pool and its own LISTEN connection on the same schema.
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(ctx.t.deps.db)).rows[0]!.s
    handle = await connect({ databaseUrl, schema, poolSize: 2 })
    deps = { ...ctx.t.deps, db: handle.db, listen: handle.listen }
  }
  const second = await buildApp(deps, { databaseKind: databaseUrl ? 'postgres' : 'pglite', notificationHeartbeatMs: 50 })
  ctx.second = { app: second, handle }
  const secondBase = await second.listen({ port: 0, host: '127.0.0.1' })
  const onFirst = await openStream(ctx.base, ctx.camille)
  const onSecond = await openStream(secondBase, ctx.julien)
  await ingest(second, ctx.ids.order, 'Seconde instance', ctx.pdf)
  await onFirst.next((n) => n.title === 'Nouveau courrier de Seconde instance')
  // And the other way round.
  await ingest(ctx.t.app, ctx.ids.order, 'Première instance', ctx.pdf)
  await onSecond.next((n) => n.title === 'Nouveau courrier de Première instance')
  await onFirst.close()
  // The heartbeat (25 s in production, 50 ms on this instance) keeps proxies from cutting a quiet stream.
  await new Promise((resolve) => setTimeout(resolve, 200))
  assert.ok(onSecond.comments.filter((c) => c === 'ping').length >= 1, onSecond.comments.join('|'))
  // Closing the server ends its open streams instead of waiting for them.
  const closing = second.close()
  await onSecond.closed()
  await closing
  ctx.second = undefined
  await handle?.close()
})

live(
  'followed on from the last notification listed (Last-Event-ID): what came between the list and the stream is sent first, only the user’s',
  async (ctx) => {
    const listed = await listOf(ctx.t.app, ctx.julien)
    const last = Math.max(0, ...listed.notifications.map((n) => n.id))
    // Raised after the list was read and before the stream is open: no stream could carry them live.
    await ingest(ctx.t.app, ctx.atelier, 'Entre-deux non partagé', ctx.pdf)
    await ingest(ctx.t.app, ctx.ids.order, 'Entre-deux', ctx.pdf)
    const julien = await openStream(ctx.base, ctx.julien, { 'last-event-id': String(last) })
    const missed = await julien.next((n) => n.title === 'Nouveau courrier de Entre-deux')
    assert.is(missed.read, false)
    assert.ok(missed.id > last)
    assert.not.ok(
      julien.events.some((n) => n.orderId === ctx.atelier || n.id <= last),
      'nothing already listed, nothing of an unshared order',
    )
    // Then it carries on live.
    await ingest(ctx.t.app, ctx.ids.order, 'Après', ctx.pdf)
    await julien.next((n) => n.title === 'Nouveau courrier de Après')
    await julien.close()
    for (const bad of ['abc', '-1', '1.5', '99999999999']) {
      const res = await fetch(`${ctx.base}/api-protected/notifications/stream`, { headers: { apitoken: ctx.julien, 'last-event-id': bad } })
      assert.is(res.status, 400, bad)
      assert.match((await res.json()).message, 'Last-Event-ID')
    }
  },
)

live('an action still open when the list is read: its notification is listed or sent when followed on, never lost', async (ctx) => {
  const { db } = ctx.t.deps
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  const raise = (title: string, hold: Promise<void> | null) =>
    db.transaction().execute(async (trx) => {
      const id = await recordEvent(trx, { kind: 'letter', orderId: ctx.ids.order, title, body: '—', link: '/mes-courriers/courriers' })
      await hold
      return id
    })
  // A slow action raises its event first and stays open; a quick one raises another meanwhile (on PostgreSQL,
  // on another connection of the pool; PGlite runs them one after the other).
  const slow = raise('Action lente', held)
  await new Promise((resolve) => setTimeout(resolve, 50))
  const quick = raise('Action rapide', null)
  let quickCommitted = false
  void quick.then(() => {
    quickCommitted = true
  })
  await Promise.race([quick, new Promise((resolve) => setTimeout(resolve, 300))])
  // The bell reads its list now, then follows on from the newest listed, once the slow action committed.
  const reading = listOf(ctx.t.app, ctx.camille)
  await new Promise((resolve) => setTimeout(resolve, 50))
  const quickBeforeSlow = quickCommitted
  release()
  const [slowId, quickId, listed] = await Promise.all([slow, quick, reading])
  // The order in which this process sees the two commits' answers is not theirs (two connections, two backends): what
  // holds is that the quick action could not commit before the slow one, and got the higher id.
  assert.equal([quickBeforeSlow, quickId > slowId], [false, true], 'notification ids follow the commits')
  const last = Math.max(0, ...listed.notifications.map((n) => n.id))
  const camille = await openStream(ctx.base, ctx.camille, { 'last-event-id': String(last) })
  for (const title of ['Action lente', 'Action rapide']) {
    if (!listed.notifications.some((n) => n.title === title)) await camille.next((n) => n.title === title)
  }
  await camille.close()
  // Outside a transaction, the event's lock would hold nothing: refused.
  assert.is(
    await recordEvent(db, { kind: 'letter', orderId: ctx.ids.order, title: 'Hors transaction', body: '—', link: '/' }).then(
      () => 'enregistré',
      (e: Error) => e.message,
    ),
    'recordEvent: inside the action’s transaction only',
  )
})

// PostgreSQL only: PGlite's LISTEN is in the process and is never lost.
if (process.env.DATABASE_URL) {
  live('LISTEN lost and back (a database restart): the open streams end, and the browser following on gets what it missed', async (ctx) => {
    const listed = await listOf(ctx.t.app, ctx.camille)
    const last = Math.max(0, ...listed.notifications.map((n) => n.id))
    const camille = await openStream(ctx.base, ctx.camille, { 'last-event-id': String(last) })
    // The instance's LISTEN connection is ended by the server, as a restart or a failover does.
    assert.ok(
      (await terminateBackends(process.env.DATABASE_URL!, `application_name = '${ctx.t.schema}' and query ilike 'listen portal%'`)) > 0,
      'the LISTEN connection was ended',
    )
    // A letter arrives while nothing listens: no stream could carry it live.
    await ingest(ctx.t.app, ctx.ids.order, 'Pendant la coupure', ctx.pdf)
    // Listening again, the instance ends the open streams (within its first reconnection delay)…
    await camille.closed()
    // …and the browser, following on from its Last-Event-ID, is sent the letter.
    const again = await openStream(ctx.base, ctx.camille, { 'last-event-id': String(last) })
    await again.next((n) => n.title === 'Nouveau courrier de Pendant la coupure')
    await again.close()
  })
}

live(
  'followed on from far behind: every missed notification is sent, oldest first, by pages; past MISSED_MAX the stream ends so the bell reads its list again',
  async (ctx) => {
    const { db } = ctx.t.deps
    const last =
      (
        await db
          .selectFrom('notifications')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id ?? 0
    // Missed while the browser was away (inserted as they are stored; no NOTIFY, so no stream gets them live).
    const missed = async (count: number, prefix: string) => {
      await sql`insert into notifications (order_id, kind, title, body, link)
      select ${ctx.ids.order}, 'letter', ${prefix} || n, '—', '/mes-courriers/courriers' from generate_series(1, ${count}) as n`.execute(db)
    }
    try {
      await missed(MISSED_PAGE + 30, 'Manqué ')
      const julien = await openStream(ctx.base, ctx.julien, { 'last-event-id': String(last) })
      await julien.next((n) => n.title === `Manqué ${MISSED_PAGE + 30}`)
      assert.equal(
        julien.events.map((n) => n.title),
        Array.from({ length: MISSED_PAGE + 30 }, (_, i) => `Manqué ${i + 1}`),
        'all of them, in order, beyond one page',
      )
      assert.ok(julien.events.every((n, i) => i === 0 || n.id > julien.events[i - 1]!.id))
      // Still open: it carries on live.
      await ingest(ctx.t.app, ctx.ids.order, 'Après le rattrapage', ctx.pdf)
      await julien.next((n) => n.title === 'Nouveau courrier de Après le rattrapage')
      await julien.close()
      await missed(MISSED_MAX, 'Très loin ')
      const far = await openStream(ctx.base, ctx.julien, { 'last-event-id': String(last) })
      await far.closed()
      assert.is(far.events.length, MISSED_MAX, 'as many as MISSED_MAX, then the end')
      assert.is(far.events[0]!.title, 'Manqué 1')
    } finally {
      await db.deleteFrom('notifications').where('id', '>', last).execute()
    }
  },
)

live('no token, no stream; no query in the URL', async (ctx) => {
  assert.is((await fetch(`${ctx.base}/api-protected/notifications/stream`)).status, 401)
  const withQuery = await fetch(`${ctx.base}/api-protected/notifications/stream?apiToken=${ctx.camille}`, {
    headers: { apitoken: ctx.camille },
  })
  assert.is(withQuery.status, 400)
})

live('an event costs the instance three reads, however many streams are open; each goes to those who see its order only', async (ctx) => {
  let reads = 0
  const counted = ctx.t.deps.db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      reads++
      return args.result
    },
  })
  // The hub alone, on a LISTEN the test drives: it hands the hub each payload itself.
  let onPayload: (payload: string) => void = () => {}
  const hub = notificationHub(
    counted,
    async (_channel, handler) => {
      onPayload = handler
      return async () => {}
    },
    { error: () => {} },
  )
  await hub.start()
  const people = await ctx.t.deps.db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'in', ['demo@example.com', 'associe@example.com', 'solo@example.com'])
    .execute()
  const idOf = (email: string) => people.find((p) => p.email === email)!.id
  const received = new Map<string, PortalNotification[]>()
  const tokenOf: Record<string, string> = {
    'demo@example.com': ctx.camille,
    'associe@example.com': ctx.julien,
    'solo@example.com': ctx.sophie,
  }
  for (const [email, count] of [
    ['demo@example.com', 40],
    ['associe@example.com', 40],
    ['solo@example.com', 40],
  ] as const) {
    received.set(email, [])
    for (let i = 0; i < count; i++) {
      const stream: LiveStream = {
        userId: idOf(email),
        tokenHash: sha256(tokenOf[email]!),
        send: (n) => void received.get(email)!.push(n),
        ping: () => {},
        end: () => {},
      }
      hub.add(stream)
    }
  }
  const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(ctx.t.deps.db)).rows[0]!.s
  const raise = async (orderId: number, title: string) => {
    const id = await ctx.t.deps.db
      .transaction()
      .execute((trx) => recordEvent(trx, { kind: 'letter', orderId, title, body: '—', link: '/mes-courriers/courriers' }))
    reads = 0
    onPayload(JSON.stringify({ id, orderId, schema }))
    for (let i = 0; i < 100 && !received.get('demo@example.com')!.some((n) => n.title === title); i++)
      await new Promise((resolve) => setTimeout(resolve, 10))
    return reads
  }
  // The Boulangerie (shared with Julien), then the Atelier (Camille's only).
  // The row, who sees its order, which of those streams' sessions are still valid (one statement for all their tokens).
  assert.is(await raise(ctx.ids.order, 'Pour la Boulangerie'), 3, '120 streams open, three reads')
  assert.is(await raise(ctx.atelier, 'Pour l’Atelier'), 3)
  const titles = (email: string) => received.get(email)!.map((n) => n.title)
  assert.is(titles('demo@example.com').length, 80, 'each of Camille’s 40 streams gets both')
  assert.equal([...new Set(titles('demo@example.com'))], ['Pour la Boulangerie', 'Pour l’Atelier'])
  assert.equal([...new Set(titles('associe@example.com'))], ['Pour la Boulangerie'], 'Julien: the shared order only')
  assert.is(titles('associe@example.com').length, 40)
  assert.equal(titles('solo@example.com'), [], 'Sophie: nothing')
  hub.endStreams()
  await hub.stop()
})

live.run()

// --- E-mail preferences and the daily digest

const mail = suite<Ctx>('e-mail preferences and the daily digest')
mail.before(setup)
mail.after((ctx) => ctx.t?.close())

const preference = (ctx: Ctx, token: string, orderId: number, email?: string) =>
  email
    ? call(ctx.t.app, token, 'PUT', `/api-protected/domiciliation-orders/${orderId}/notification-preferences`, { email })
    : call(ctx.t.app, token, 'GET', `/api-protected/domiciliation-orders/${orderId}/notification-preferences`)

mail('each person chooses per order; a stranger cannot; a wrong value is a French 400', async (ctx) => {
  assert.equal((await preference(ctx, ctx.julien, ctx.ids.order)).json(), { email: 'each' })
  assert.equal((await preference(ctx, ctx.julien, ctx.ids.order, 'none')).json(), { email: 'none' })
  assert.equal((await preference(ctx, ctx.camille, ctx.ids.order)).json(), { email: 'each' }, 'Camille keeps hers')
  assert.is((await preference(ctx, ctx.sophie, ctx.ids.order)).statusCode, 404)
  assert.is((await preference(ctx, ctx.sophie, ctx.ids.order, 'each')).statusCode, 404)
  const wrong = await preference(ctx, ctx.camille, ctx.ids.order, 'toujours')
  assert.is(wrong.statusCode, 400)
  assert.equal((await preference(ctx, ctx.camille, ctx.ids.order)).json(), { email: 'each' })
})

mail('letters and packages are e-mailed to those who want one e-mail per event', async (ctx) => {
  ctx.t.mails.length = 0
  await ingest(ctx.t.app, ctx.ids.order, 'EDF Entreprises', ctx.pdf)
  assert.equal(
    ctx.t.mails.map((m) => [m.to, m.subject]),
    [['demo@example.com', 'Nouveau courrier de EDF Entreprises']],
    'Julien chose none',
  )
  ctx.t.mails.length = 0
  const parcel = await operator(ctx.t.app, 'POST', `/api/operator/domiciliation-orders/${ctx.ids.order}/packages`, {
    carrier: 'UPS',
    sender: 'Bureau Vallée',
  })
  assert.is(parcel.statusCode, 200)
  assert.equal(
    ctx.t.mails.map((m) => [m.to, m.subject]),
    [['demo@example.com', 'Nouveau colis']],
  )
  assert.match(ctx.t.mails[0]!.text, 'Bureau Vallée')
  assert.match(ctx.t.mails[0]!.link!, '/mes-courriers/colis')
})

mail('the daily digest: no e-mail per event, then one e-mail a day, once, whatever runs it', async (ctx) => {
  assert.is((await preference(ctx, ctx.camille, ctx.ids.order, 'digest')).statusCode, 200)
  ctx.t.mails.length = 0
  ctx.t.clock.set(new Date())
  await ingest(ctx.t.app, ctx.ids.order, 'Crédit Agricole', ctx.pdf)
  assert.equal(ctx.t.mails, [], 'nobody wants this one at once')
  ctx.t.clock.advance(DIGEST_SETTLE_MS)
  // Two instances' timers at the same moment.
  const [a, b] = await Promise.all([sendDailyDigests(ctx.t.deps), sendDailyDigests(ctx.t.deps)])
  assert.equal([...a.sent, ...b.sent], ['demo@example.com'])
  assert.is(ctx.t.mails.length, 1)
  assert.is(ctx.t.mails[0]!.subject, digestSubject(Number(/(\d+) nouveaut/.exec(ctx.t.mails[0]!.subject)![1])))
  assert.match(ctx.t.mails[0]!.text, 'Nouveau courrier de Crédit Agricole')
  assert.equal((await sendDailyDigests(ctx.t.deps)).sent, [], 'once a day')
  // The next day: only what came since.
  ctx.t.clock.advance(86_400_000)
  await ingest(ctx.t.app, ctx.ids.order, 'La Poste Pro', ctx.pdf)
  ctx.t.clock.advance(DIGEST_SETTLE_MS)
  ctx.t.mails.length = 0
  assert.equal((await sendDailyDigests(ctx.t.deps)).sent, ['demo@example.com'])
  assert.match(ctx.t.mails[0]!.text, 'La Poste Pro')
  assert.not.match(ctx.t.mails[0]!.text, 'Crédit Agricole')
})

mail('a digest whose e-mail fails is sent at the next round', async (ctx) => {
  ctx.t.clock.advance(2 * 86_400_000)
  await ingest(ctx.t.app, ctx.ids.order, 'Orange Business', ctx.pdf)
  ctx.t.clock.advance(DIGEST_SETTLE_MS)
  const failing = {
    ...ctx.t.deps,
    mailer: {
      send: async () => {
        throw new Error('SMTP indisponible')
      },
    },
  }
  assert.equal((await sendDailyDigests(failing)).failures, ['demo@example.com'])
  ctx.t.mails.length = 0
  assert.equal((await sendDailyDigests(ctx.t.deps)).sent, ['demo@example.com'])
  assert.match(ctx.t.mails[0]!.text, 'Orange Business')
})

mail('an event still being written when the digest goes is in the next one, not lost', async (ctx) => {
  ctx.t.clock.advance(3 * 86_400_000)
  const digestAt = ctx.t.clock.now()
  await sendDailyDigests(ctx.t.deps) // today's digest goes
  // Its action took its time a second before the digest, and committed after it (an invoice's PDF being stored).
  await ctx.t.deps.db
    .insertInto('notifications')
    .values({
      order_id: ctx.ids.order,
      kind: 'invoice',
      title: 'Nouvelle facture',
      body: 'Facture FA-TARDIVE de 12,00 €',
      link: '/factures',
      created_at: new Date(digestAt.getTime() - 1000),
    })
    .execute()
  ctx.t.clock.advance(86_400_000)
  ctx.t.mails.length = 0
  assert.equal((await sendDailyDigests(ctx.t.deps)).sent, ['demo@example.com'])
  assert.match(ctx.t.mails[0]!.text, 'FA-TARDIVE')
})

mail.run()

// --- Each letter's history

const history = suite<Ctx>('the history of a letter')
history.before(setup)
history.after((ctx) => ctx.t?.close())

const historyOf = async (ctx: Ctx, token: string, id: number) => {
  const res = await call(ctx.t.app, token, 'GET', `/api-protected/documents/${id}/history`)
  assert.is(res.statusCode, 200, res.body)
  return (res.json().events as { kind: string; actor: string | null; detail: string | null; at: string }[]).map((e) => [
    e.kind,
    e.actor,
    e.detail,
  ])
}

history(
  'received, scanned, opened (by whom, once each), filed, sent by e-mail (to whom), in order, with the reader as "vous"',
  async (ctx) => {
    const letter = await ingest(ctx.t.app, ctx.ids.order, 'Mairie de Paris', ctx.pdf)
    assert.equal(await historyOf(ctx, ctx.camille, letter.id), [
      ['received', null, null],
      ['scanned', null, null],
    ])
    assert.is((await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents/${letter.id}/file`)).statusCode, 200)
    assert.is((await call(ctx.t.app, ctx.camille, 'PUT', `/api-protected/documents/${letter.id}`, { readFlag: true })).statusCode, 200)
    assert.is((await call(ctx.t.app, ctx.julien, 'PUT', `/api-protected/documents/${letter.id}`, { readFlag: true })).statusCode, 200)
    const folder = await ctx.t.deps.db
      .selectFrom('folders')
      .select(['id', 'name'])
      .where('id', '=', ctx.ids.folder)
      .executeTakeFirstOrThrow()
    assert.is((await call(ctx.t.app, ctx.camille, 'PUT', `/api-protected/documents/${letter.id}`, { folderId: folder.id })).statusCode, 200)
    assert.is(
      (await call(ctx.t.app, ctx.camille, 'PUT', `/api-protected/documents/${letter.id}`, { folderId: folder.id })).statusCode,
      200,
      'the same folder again: no new line',
    )
    const sent = await call(ctx.t.app, ctx.julien, 'POST', '/api-protected/send-documents', {
      email: 'comptable@example.com',
      documentIds: [letter.id],
    })
    assert.is(sent.statusCode, 200, sent.body)
    const expected = (me: string, other: string) => [
      ['received', null, null],
      ['scanned', null, null],
      ['opened', me, null],
      ['opened', other, null],
      ['moved', me, folder.name],
      ['emailed', other, 'comptable@example.com'],
    ]
    assert.equal(await historyOf(ctx, ctx.camille, letter.id), expected('vous', 'Julien Moreau'))
    assert.equal(await historyOf(ctx, ctx.julien, letter.id), expected('Camille Martin', 'vous'))
  },
)

history('a letter taken out of its folder; a failed e-mail writes nothing; a stranger sees no history', async (ctx) => {
  const letter = await ingest(ctx.t.app, ctx.ids.order, 'Préfecture', ctx.pdf)
  await call(ctx.t.app, ctx.camille, 'PUT', `/api-protected/documents/${letter.id}`, { folderId: ctx.ids.folder })
  await call(ctx.t.app, ctx.camille, 'PUT', `/api-protected/documents/${letter.id}`, { folderId: null })
  const app = await buildApp(
    {
      ...ctx.t.deps,
      mailer: {
        send: async () => {
          throw new Error('SMTP indisponible')
        },
      },
    },
    { databaseKind: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
  )
  try {
    const failed = await call(app, ctx.camille, 'POST', '/api-protected/send-documents', {
      email: 'x@example.com',
      documentIds: [letter.id],
    })
    assert.is.not(failed.statusCode, 200)
  } finally {
    await app.close()
  }
  const folder = await ctx.t.deps.db.selectFrom('folders').select('name').where('id', '=', ctx.ids.folder).executeTakeFirstOrThrow()
  const events = await historyOf(ctx, ctx.camille, letter.id)
  assert.equal(events.slice(2), [
    ['moved', 'vous', folder.name],
    ['moved', 'vous', null],
  ])
  assert.not.ok(events.some(([kind]) => kind === 'emailed'))
  const stranger = await call(ctx.t.app, ctx.sophie, 'GET', `/api-protected/documents/${letter.id}/history`)
  assert.is(stranger.statusCode, 404)
})

history.run()

// --- The live stream lasts as long as its session; an ended stream is never written to

interface SessionCtx extends Ctx {
  base: string
  others: { app: FastifyInstance; handle: DbHandle }[]
}

const sessions = suite<SessionCtx>('the live stream ends with its session, and nothing is written to an ended stream')
sessions.before(async (ctx) => {
  await setup(ctx)
  ctx.base = await ctx.t.app.listen({ port: 0, host: '127.0.0.1' })
  ctx.others = []
})
sessions.after(async (ctx) => {
  for (const other of ctx.others) {
    await other.app.close()
    await other.handle.close()
  }
  await ctx.t.close()
})

/**
 * Another API instance on the same database (PostgreSQL: its own pool and its own LISTEN connection), with its heartbeat; `responses` are
 * its streams' raw answers.
 */
async function otherInstance(ctx: SessionCtx, heartbeatMs: number) {
  const handle = await ctx.t.connectAgain()
  const app = await buildApp(
    { ...ctx.t.deps, db: handle.db, listen: handle.listen },
    { databaseKind: process.env.DATABASE_URL ? 'postgres' : 'pglite', notificationHeartbeatMs: heartbeatMs },
  )
  const responses: ServerResponse[] = []
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/api-protected/notifications/stream')) responses.push(reply.raw)
  })
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  ctx.others.push({ app, handle })
  return { app, base, responses }
}

const signOutOthers = async (app: FastifyInstance, token: string) => {
  const res = await call(app, token, 'DELETE', '/api-protected/users/me/sessions')
  assert.is(res.statusCode, 200, res.body)
}

sessions(
  'the other devices signed out: their open streams, on this instance and another, get no more events and end; the device kept carries on',
  async (ctx) => {
    const kept = await login(ctx.t.app)
    const stolen = await login(ctx.t.app)
    // The other instance's heartbeat is the production one (25 s): only the event's own check can end its stream here.
    const other = await otherInstance(ctx, HEARTBEAT_MS)
    const keptStream = await openStream(ctx.base, kept)
    const stolenHere = await openStream(ctx.base, stolen)
    const stolenThere = await openStream(other.base, stolen)
    await ingest(ctx.t.app, ctx.ids.order, 'Avant la déconnexion', ctx.pdf)
    await Promise.all(
      [keptStream, stolenHere, stolenThere].map((s) => s.next((n) => n.title === 'Nouveau courrier de Avant la déconnexion')),
    )
    await signOutOthers(ctx.t.app, kept)
    await ingest(ctx.t.app, ctx.ids.order, 'Après la déconnexion', ctx.pdf)
    await keptStream.next((n) => n.title === 'Nouveau courrier de Après la déconnexion')
    await Promise.all([stolenHere.closed(), stolenThere.closed()])
    for (const s of [stolenHere, stolenThere])
      assert.not.ok(
        s.events.some((n) => n.title === 'Nouveau courrier de Après la déconnexion'),
        'nothing for the signed-out token',
      )
    await ingest(ctx.t.app, ctx.ids.order, 'Encore après', ctx.pdf)
    await keptStream.next((n) => n.title === 'Nouveau courrier de Encore après')
    await keptStream.close()
  },
)

sessions('the heartbeat ends an idle stream whose session was signed out on another instance, or has expired', async (ctx) => {
  const other = await otherInstance(ctx, 50)
  const kept = await login(ctx.t.app)
  const gone = await login(ctx.t.app)
  const keptStream = await openStream(other.base, kept)
  const goneStream = await openStream(other.base, gone)
  // Signed out through the first instance; no event comes: the other instance's heartbeat finds it in the database.
  await signOutOthers(ctx.t.app, kept)
  await goneStream.closed()
  const pings = keptStream.comments.filter((c) => c === 'ping').length
  await eventually(() => keptStream.comments.filter((c) => c === 'ping').length >= pings + 3, 2000)
  assert.not.ok(goneStream.events.length || keptStream.events.length)
  // Thirty-one days on, the kept session (30 days) has expired: its stream ends as well, at a heartbeat.
  const now = ctx.t.clock.now()
  ctx.t.clock.advance(31 * 86_400_000)
  try {
    await keptStream.closed()
  } finally {
    ctx.t.clock.set(now)
  }
})

sessions(
  'a stream ended while its client reads nothing (the 1,000 cap; on PostgreSQL, LISTEN lost and back): no write after its end, the process keeps serving',
  async (ctx) => {
    const { db } = ctx.t.deps
    const uncaught: unknown[] = []
    const onUncaught = (error: unknown) => void uncaught.push(error)
    process.on('uncaughtException', onUncaught)
    const sockets: net.Socket[] = []
    const last =
      (
        await db
          .selectFrom('notifications')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id ?? 0
    try {
      // 40 kB each: far more than the sockets hold, so what the server writes stays in its own buffers (the stream has ended,
      // its answer has not finished), where a write after the end is an uncaught error that stops the process.
      await sql`insert into notifications (order_id, kind, title, body, link)
      select ${ctx.ids.order}, 'letter', 'Lourd ' || n, repeat('x', 40000), '/mes-courriers/courriers' from generate_series(1, ${MISSED_MAX + 10}) as n`.execute(
        db,
      )
      const other = await otherInstance(ctx, 20)
      const port = Number(new URL(other.base).port)
      const token = await login(ctx.t.app)
      /** A stream request whose client never reads. */
      const silent = async (lastEventId: number) => {
        const socket = net.connect(port, '127.0.0.1')
        sockets.push(socket)
        socket.pause()
        await new Promise((resolve) => socket.once('connect', resolve))
        socket.write(
          `GET /api-protected/notifications/stream HTTP/1.1\r\nHost: x\r\napitoken: ${token}\r\nlast-event-id: ${lastEventId}\r\nconnection: close\r\n\r\n`,
        )
        return eventually(() => other.responses[sockets.length - 1], 5000)
      }
      const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
      // Followed on from far behind: past MISSED_MAX the stream ends while its client has read nothing.
      const capped = await silent(last)
      await eventually(() => capped.writableEnded, 20_000)
      assert.not.ok(capped.writableFinished, 'its answer is still in the server’s buffers')
      // Heartbeats (every 20 ms) and an event for its user come after: nothing is written to it.
      await settle(150)
      await ingest(ctx.t.app, ctx.ids.order, 'Après la fin', ctx.pdf)
      await settle(150)
      assert.equal(uncaught, [])
      assert.is((await call(other.app, token, 'GET', '/api-protected/notifications')).statusCode, 200, 'the instance still serves')
      if (process.env.DATABASE_URL) {
        // PostgreSQL: LISTEN lost and back ends the open streams (endOpenStreams). One still open (900 behind, under the
        // cap), its client reading nothing, is ended so; the heartbeat goes on no more for it.
        const open = await silent(last + MISSED_MAX + 10 - 900)
        await eventually(() => open.writableLength > 0, 20_000)
        await settle(200)
        assert.not.ok(open.writableEnded)
        assert.ok(
          (await terminateBackends(process.env.DATABASE_URL, `application_name = '${ctx.t.schema}' and query ilike 'listen portal%'`)) > 0,
          'the LISTEN connections were ended',
        )
        await eventually(() => open.writableEnded, 5000)
        assert.not.ok(open.writableFinished, 'its answer is still in the server’s buffers')
        await settle(150)
        await ingest(ctx.t.app, ctx.ids.order, 'Après la reprise', ctx.pdf)
        await settle(150)
        assert.equal(uncaught, [])
      }
      // What the capped stream's client finally reads: the 1,000 it missed, the end, nothing after.
      const first = sockets[0]!
      let text = ''
      first.setEncoding('utf8')
      first.on('data', (chunk: string) => {
        text += chunk
      })
      first.resume()
      await new Promise((resolve) => first.once('end', resolve))
      assert.is(text.match(/^event: notification$/gm)?.length, MISSED_MAX)
      assert.not.match(text, 'Après la fin')
      assert.not.match(text.slice(text.lastIndexOf('event: notification')), ': ping', 'no heartbeat after the last one')
    } finally {
      for (const socket of sockets) socket.destroy()
      process.off('uncaughtException', onUncaught)
      await db.deleteFrom('notifications').where('id', '>', last).execute()
    }
  },
)

/**
 * A hub alone on a LISTEN the test drives, counting its statements, with `count` fake streams of Camille's: a quarter on `kept`, the rest
 * on three other sessions.
 */
async function countedHub(ctx: SessionCtx, heartbeatMs: number, kept: string, gone: string[], count = 120) {
  const counter = { reads: 0, pings: 0 }
  /** A send or a ping to a stream already ended (a throw would be swallowed by the hub's own catch: noted instead). */
  const afterEnd: string[] = []
  const counted = ctx.t.deps.db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      counter.reads++
      return args.result
    },
  })
  let onPayload: (payload: string) => void = () => {}
  const hub = notificationHub(
    counted,
    async (_channel, handler) => {
      onPayload = handler
      return async () => {}
    },
    { error: () => {} },
    { clock: ctx.t.clock, heartbeatMs },
  )
  await hub.start()
  const camilleId = (await ctx.t.deps.db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow())
    .id
  const received = new Map<LiveStream, string[]>()
  const ended = new Set<LiveStream>()
  const streams: LiveStream[] = []
  for (let i = 0; i < count; i++) {
    const stream: LiveStream = {
      userId: camilleId,
      tokenHash: sha256(i % 4 === 0 ? kept : gone[(i % 4) - 1]!),
      send: (n) => {
        if (ended.has(stream)) afterEnd.push(`send ${n.title}`)
        received.get(stream)!.push(n.title)
      },
      ping: () => {
        if (ended.has(stream)) afterEnd.push('ping')
        counter.pings++
      },
      end: () => void ended.add(stream),
    }
    received.set(stream, [])
    streams.push(stream)
    hub.add(stream)
  }
  const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(ctx.t.deps.db)).rows[0]!.s
  /** Raises an event on the Boulangerie and hands it to the hub: the statements the hub ran for it. */
  const raise = async (title: string) => {
    const id = await ctx.t.deps.db
      .transaction()
      .execute((trx) => recordEvent(trx, { kind: 'letter', orderId: ctx.ids.order, title, body: '—', link: '/mes-courriers/courriers' }))
    counter.reads = 0
    onPayload(JSON.stringify({ id, orderId: ctx.ids.order, schema }))
    await eventually(() => received.get(streams[0]!)!.includes(title), 2000)
    return counter.reads
  }
  return { hub, counter, streams, received, ended, afterEnd, raise }
}

sessions(
  'three reads per event however many streams, one statement per heartbeat round for them all; the signed-out streams end and get nothing',
  async (ctx) => {
    const kept = await login(ctx.t.app)
    const gone = await Promise.all(Array.from({ length: 3 }, () => login(ctx.t.app)))
    // Per event (the heartbeat an hour away, so that no round falls among the reads counted).
    const events = await countedHub(ctx, 3_600_000, kept, gone)
    assert.is(await events.raise('Tous connectés'), 3, '120 streams, three reads: the row, who sees its order, their sessions')
    assert.ok(events.streams.every((s) => events.received.get(s)!.includes('Tous connectés')))
    // Per heartbeat round, on a hub of its own.
    const beats = await countedHub(ctx, 100, kept, gone)
    beats.counter.reads = 0
    beats.counter.pings = 0
    await eventually(() => beats.counter.pings === 120, 2000)
    assert.is(beats.counter.reads, 1, 'one statement for the round')
    // Three of the four sessions signed out (through the API, as a person does).
    await signOutOthers(ctx.t.app, kept)
    // The event still costs three reads; the 90 signed-out streams get nothing and end.
    assert.is(await events.raise('Après la déconnexion'), 3)
    const alive = events.streams.filter((s) => !events.ended.has(s))
    assert.is(alive.length, 30)
    assert.ok(alive.every((s) => s.tokenHash === sha256(kept) && events.received.get(s)!.includes('Après la déconnexion')))
    assert.not.ok(events.streams.some((s) => events.ended.has(s) && events.received.get(s)!.includes('Après la déconnexion')))
    // The heartbeat, with no event: the next round ends the 90, then only the 30 left are pinged.
    await eventually(() => beats.ended.size === 90, 2000)
    assert.ok([...beats.ended].every((s) => s.tokenHash !== sha256(kept)))
    beats.counter.reads = 0
    beats.counter.pings = 0
    await eventually(() => beats.counter.pings >= 60, 2000)
    assert.ok(beats.counter.reads >= 2 && beats.counter.reads <= 3, `${beats.counter.reads} statements for ${beats.counter.pings} pings`)
    for (const { hub, ended } of [events, beats]) {
      hub.endStreams()
      assert.is(ended.size, 120)
      await hub.stop()
    }
    // Two heartbeats later: the ended streams were never written to.
    await new Promise((resolve) => setTimeout(resolve, 250))
    assert.equal([...events.afterEnd, ...beats.afterEnd], [], 'nothing sent or pinged to an ended stream')
  },
)

sessions.run()

// --- At most STREAMS_PER_USER live streams per user, whichever instance holds them

interface LimitCtx extends Ctx {
  base: string
  camilleId: number
  others: { app: FastifyInstance; handle: DbHandle }[]
}

const limits = suite<LimitCtx>(`at most ${STREAMS_PER_USER} live streams per user, whichever instance holds them`)
limits.before(async (ctx) => {
  await setup(ctx)
  ctx.base = await ctx.t.app.listen({ port: 0, host: '127.0.0.1' })
  ctx.camilleId = (
    await ctx.t.deps.db.selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()
  ).id
  ctx.others = []
})
limits.after(async (ctx) => {
  for (const other of ctx.others) {
    await other.app.close()
    await other.handle.close()
  }
  await ctx.t.close()
})

type OpenStream = Awaited<ReturnType<typeof openStream>>

/** Another API instance on the same database (PostgreSQL: its own pool and its own LISTEN connection; PGlite: the same process). */
async function streamInstance(ctx: LimitCtx, limit: StreamLimitOptions = {}) {
  const handle = await ctx.t.connectAgain()
  const app = await buildApp(
    { ...ctx.t.deps, db: handle.db, listen: handle.listen },
    { databaseKind: process.env.DATABASE_URL ? 'postgres' : 'pglite', streamLimit: limit },
  )
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const other = { app, handle }
  ctx.others.push(other)
  return {
    app,
    base,
    async close() {
      await app.close()
      await handle.close()
      ctx.others.splice(ctx.others.indexOf(other), 1)
    },
  }
}

/** One after the other: each one's place is taken before the next asks for its own. */
async function openStreams(base: string, token: string, count: number): Promise<OpenStream[]> {
  const streams: OpenStream[] = []
  for (let i = 0; i < count; i++) streams.push(await openStream(base, token))
  return streams
}

const liveRows = (ctx: LimitCtx, userId = ctx.camilleId) =>
  ctx.t.deps.db.selectFrom('live_streams').select(['id', 'instance']).where('user_id', '=', userId).orderBy('id').execute()

/** The streams of earlier tests, closed by their clients, have given their places back. */
const noLiveRows = async (ctx: LimitCtx) => {
  for (let i = 0; i < 100 && (await liveRows(ctx)).length; i++) await new Promise((resolve) => setTimeout(resolve, 20))
  assert.equal(await liveRows(ctx), [], 'no stream of Camille’s left open')
}

/** The stream was told its place was taken (event `replaced`, with a `retry` of 5 minutes), then ended. */
async function replacedStream(stream: OpenStream, what: string) {
  await stream.closed().catch(() => assert.unreachable(`${what} is still open`))
  assert.equal(
    stream.others.map((e) => e.event),
    ['replaced'],
    `${what}: told why`,
  )
  assert.match((stream.others[0]!.data as { message: string }).message, `${STREAMS_PER_USER} onglets ou appareils au plus par compte`)
  assert.match(stream.others[0]!.block, /^retry: 300000$/m)
}

/** A letter on the Boulangerie reaches each of these streams (they are open and served). */
async function allHear(ctx: LimitCtx, streams: OpenStream[], sender: string) {
  await ingest(ctx.t.app, ctx.ids.order, sender, ctx.pdf)
  await Promise.all(streams.map((s) => s.next((n) => n.title === `Nouveau courrier de ${sender}`)))
}

limits(
  `a ${STREAMS_PER_USER + 1}th stream ends the user’s oldest, which is told why; the others and another user’s stream carry on; a stream closed by its client gives its place back`,
  async (ctx) => {
    const sophie = await openStream(ctx.base, ctx.sophie)
    // Two devices of Camille's: the limit is the user's, whichever session opened the stream.
    const phone = await login(ctx.t.app)
    const camille = [...(await openStreams(ctx.base, ctx.camille, 3)), ...(await openStreams(ctx.base, phone, 2))]
    assert.is((await liveRows(ctx)).length, STREAMS_PER_USER)
    await allHear(ctx, camille, 'Cinq flux')
    assert.ok(camille.every((s) => s.others.length === 0))

    const sixth = await openStream(ctx.base, ctx.camille)
    await replacedStream(camille[0]!, 'the oldest')
    await allHear(ctx, [...camille.slice(1), sixth], 'Six flux')
    assert.is((await liveRows(ctx)).length, STREAMS_PER_USER)
    const sophieOrder = (await call(ctx.t.app, ctx.sophie, 'GET', '/api-protected/my-domiciliation-orders')).json()[0].id
    await ingest(ctx.t.app, sophieOrder, 'Pour Sophie', ctx.pdf)
    await sophie.next((n) => n.title === 'Nouveau courrier de Pour Sophie')
    assert.ok(sophie.isOpen() && sophie.others.length === 0, 'another user’s stream is untouched')

    // The seventh ends the next oldest.
    const seventh = await openStream(ctx.base, phone)
    await replacedStream(camille[1]!, 'the next oldest')
    // A stream closed by its client gives its place back: the next one ends nobody's.
    await camille[2]!.close()
    for (let i = 0; i < 100 && (await liveRows(ctx)).length >= STREAMS_PER_USER; i++)
      await new Promise((resolve) => setTimeout(resolve, 20))
    assert.is((await liveRows(ctx)).length, STREAMS_PER_USER - 1)
    const eighth = await openStream(ctx.base, ctx.camille)
    const open = [camille[3]!, camille[4]!, sixth, seventh, eighth]
    await allHear(ctx, open, 'Place rendue')
    assert.ok(open.every((s) => s.isOpen() && s.others.length === 0))
    await Promise.all([...open, sophie].map((s) => s.close()))
  },
)

limits(
  'across instances on one database: the sixth stream on one instance ends the oldest on the other, both ways; another user’s untouched; a closing instance gives its places back',
  async (ctx) => {
    await noLiveRows(ctx)
    const other = await streamInstance(ctx)
    const julien = await openStream(other.base, ctx.julien)
    const onFirst = await openStreams(ctx.base, ctx.camille, 3)
    const onOther = await openStreams(other.base, ctx.camille, 2)
    // The sixth, on the other instance, ends the oldest, on the first.
    const sixth = await openStream(other.base, ctx.camille)
    await replacedStream(onFirst[0]!, 'the oldest, on the first instance')
    // Three more on the first: its two left end, then the oldest on the other instance.
    const more = await openStreams(ctx.base, ctx.camille, 2)
    await Promise.all([
      replacedStream(onFirst[1]!, 'the second, on the first instance'),
      replacedStream(onFirst[2]!, 'the third, on the first instance'),
    ])
    const ninth = await openStream(ctx.base, ctx.camille)
    await replacedStream(onOther[0]!, 'the oldest, on the other instance')
    const open = [onOther[1]!, sixth, ...more, ninth]
    await allHear(ctx, [...open, julien], 'Deux instances')
    assert.ok(open.every((s) => s.isOpen() && s.others.length === 0))
    assert.is((await liveRows(ctx)).length, STREAMS_PER_USER)
    // The other instance closes: its streams end (not replaced: the browsers follow again at once, elsewhere) and their rows go.
    await other.close()
    for (const s of [onOther[1]!, sixth, julien]) {
      await s.closed()
      assert.equal(s.others, [])
    }
    assert.is((await liveRows(ctx)).length, 3)
    assert.equal(
      await liveRows(
        ctx,
        (await ctx.t.deps.db.selectFrom('users').select('id').where('email', '=', 'associe@example.com').executeTakeFirstOrThrow()).id,
      ),
      [],
    )
    await Promise.all([...more, ninth].map((s) => s.close()))
  },
)

limits(
  'an instance that stopped without cleaning up (killed, its host lost) holds no place: its rows, left stale, are not counted and go',
  async (ctx) => {
    await noLiveRows(ctx)
    const first = await openStream(ctx.base, ctx.camille)
    // Five rows newer than the first stream's, of an instance that stopped a minute ago.
    const { db } = ctx.t.deps
    await db
      .insertInto('live_streams')
      .values(
        Array.from({ length: STREAMS_PER_USER }, () => ({
          user_id: ctx.camilleId,
          instance: 'instance-arrêtée',
          seen_at: sql<Date>`now() - interval '1 minute'`,
        })),
      )
      .execute()
    const more = await openStreams(ctx.base, ctx.camille, STREAMS_PER_USER - 1)
    await allHear(ctx, [first, ...more], 'Après l’arrêt')
    assert.ok(first.isOpen() && first.others.length === 0, 'the oldest live stream keeps its place')
    assert.equal(
      (await liveRows(ctx)).filter((r) => r.instance === 'instance-arrêtée'),
      [],
      'the stale rows went',
    )
    // Another user's stale row goes with the next refresh of any instance.
    const sophieId = (await db.selectFrom('users').select('id').where('email', '=', 'solo@example.com').executeTakeFirstOrThrow()).id
    await db
      .insertInto('live_streams')
      .values({ user_id: sophieId, instance: 'instance-arrêtée', seen_at: sql<Date>`now() - interval '1 minute'` })
      .execute()
    const refreshing = await streamInstance(ctx, { refreshMs: 50 })
    const julien = await openStream(refreshing.base, ctx.julien)
    for (let i = 0; i < 100 && (await liveRows(ctx, sophieId)).length; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    assert.equal(await liveRows(ctx, sophieId), [])
    await Promise.all([first, ...more, julien].map((s) => s.close()))
    await refreshing.close()
  },
)

limits(
  'a running instance keeps its places however long its streams last (its refresh), and ends a stream whose row was taken without its hearing',
  async (ctx) => {
    await noLiveRows(ctx)
    // Two instances that take a row for stale after 400 ms (REFRESH_MS and STALE_MS shortened): only the refresh keeps one.
    const times = { refreshMs: 50, staleMs: 400 }
    const [one, two] = [await streamInstance(ctx, times), await streamInstance(ctx, times)]
    const oldest = await openStream(one.base, ctx.camille)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const newer = await openStreams(two.base, ctx.camille, STREAMS_PER_USER - 1)
    await allHear(ctx, [oldest, ...newer], 'Longtemps ouvert')
    assert.ok(oldest.isOpen() && oldest.others.length === 0, 'a second after, the oldest still holds its place')
    const sixth = await openStream(two.base, ctx.camille)
    await replacedStream(oldest, 'the oldest, a second after')
    // A row deleted as a takeover does, but with no NOTIFY heard (its instance's LISTEN away): the refresh ends its stream.
    const row = (await liveRows(ctx)).at(-1)!
    await ctx.t.deps.db.deleteFrom('live_streams').where('id', '=', row.id).execute()
    await sixth.closed()
    assert.equal(sixth.others, [], 'ended without « replaced »: the browser follows again after its usual pause')
    await allHear(ctx, newer, 'Après la reprise')
    await Promise.all(newer.map((s) => s.close()))
    await one.close()
    await two.close()
  },
)

limits.run()
