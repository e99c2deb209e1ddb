// « Mes données »: the ZIP a person prepares holds every letter the API lists for their orders, byte for byte, their
// invoices, certificates and contracts, and their data as JSON and CSV, of nobody else; a collaborator gets the shared
// orders only; nobody else may read it; after 7 days it answers 410 and the cleanup removes its file.
// The ZIPs are read with Debian's `unzip` (Info-ZIP): a reader that is not the writer's library.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import { DATA_EXPORT_JOB, expireDataExports, toCsv, zipName } from '../../../server/services/data-export.ts'
import { runOneJob, workerName } from '../../../server/services/jobs.ts'
import { buildTestApp, call, login, type TestApp } from '../../util/server.ts'

const run = promisify(execFile)

interface Ctx {
  t: TestApp
  camille: string
  julien: string
  sophie: string
  dir: string
}

const get = async (t: TestApp, token: string | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? { apitoken: token } : {} })

/** Starts an export, runs its job here, and answers the export as the API then says it is. */
async function prepare(t: TestApp, token: string) {
  const started = await call(t.app, token, 'POST', '/api-protected/users/me/data-exports')
  assert.is(started.statusCode, 200, started.body)
  const { id } = started.json()
  const job = await t.deps.db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', DATA_EXPORT_JOB)
    .where(sql<boolean>`(payload->>'exportId')::int = ${id}`)
    .executeTakeFirstOrThrow()
  assert.ok(await runOneJob({ db: t.deps.db, handlers: t.handlers, name: workerName(), only: String(job.id) }))
  return (await get(t, token, `/api-protected/users/me/data-exports/${id}`)).json()
}

/** Downloads the ZIP, checks it with `unzip -t`, unpacks it; its entries and its folder. */
async function download(ctx: Ctx, token: string, file: string, name: string) {
  const res = await get(ctx.t, token, file)
  assert.is(res.statusCode, 200, res.body)
  assert.is(res.headers['content-type'], 'application/zip')
  assert.is(Number(res.headers['content-length']), res.rawPayload.length)
  assert.match(String(res.headers['content-disposition']), /^attachment; filename="mes-donnees-\d{4}-\d{2}-\d{2}\.zip"$/)
  assert.match(String(res.headers['cache-control']), 'no-store')
  assert.is(res.headers['x-content-type-options'], 'nosniff')
  assert.is(res.headers['content-security-policy'], 'sandbox', 'opened by itself, a file runs nothing')
  const zip = join(ctx.dir, `${name}.zip`)
  await writeFile(zip, res.rawPayload)
  await run('unzip', ['-tq', zip])
  const { stdout } = await run('unzip', ['-Z1', zip], { maxBuffer: 16 * 1024 * 1024 })
  const into = join(ctx.dir, name)
  await run('unzip', ['-q', zip, '-d', into])
  return { entries: stdout.split('\n').filter(Boolean), into }
}

/** A CSV as toCsv writes it (`;`, quotes, CRLF, BOM), read back into rows of cells. */
function parseCsv(text: string): string[][] {
  assert.ok(text.startsWith('\uFEFF'), 'a byte-order mark for spreadsheets')
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"') quoted = true
    else if (c === ';') {
      row.push(cell)
      cell = ''
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      i++
    } else cell += c
  }
  assert.is(cell + row.join(''), '', 'the file ends with a line break')
  return rows
}

const Export = suite<Ctx>('people: « Mes données », the ZIP of what a person sees')

Export.before(async (ctx) => {
  ctx.t = await buildTestApp()
  ctx.camille = await login(ctx.t.app)
  ctx.julien = await login(ctx.t.app, 'associe@example.com')
  ctx.sophie = await login(ctx.t.app, 'solo@example.com')
  ctx.dir = await mkdtemp(join(tmpdir(), 'mes-donnees-'))
})
Export.after(async (ctx) => {
  await ctx.t.close()
  await rm(ctx.dir, { recursive: true, force: true })
})

Export('file names: readable, without what a file system refuses', () => {
  assert.is(zipName('URSSAF / Île-de-France: "relance"'), 'URSSAF Île-de-France relance')
  assert.is(zipName('..\u0000'), 'sans nom')
  assert.is(zipName('x'.repeat(200)).length, 80)
})

Export('CSV: quoted where needed, a formula never run by a spreadsheet', () => {
  const text = toCsv([{ a: 'un ; deux', b: 'ligne 1\nligne "2"', c: '=SOMME(A1)', d: 12 }])
  assert.equal(parseCsv(text), [
    ['a', 'b', 'c', 'd'],
    ['un ; deux', 'ligne 1\nligne "2"', "'=SOMME(A1)", '12'],
  ])
})

Export('Camille: every letter the API lists, byte-identical, her bills, certificates, contracts and data; nobody else’s', async (ctx) => {
  const { t, camille } = ctx
  const own = (await get(t, camille, '/api-protected/my-domiciliation-orders')).json()[0] as { id: number; raisonSociale: string }
  const reported = await call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${own.id}:send-problem`, {
    message: 'Le courrier du 3 mars manque.',
  })
  assert.is(reported.statusCode, 200, reported.body)
  const mailsBefore = t.mails.length
  const ready = await prepare(t, camille)
  assert.is(ready.state, 'ready')
  assert.is(ready.progress, 100)
  assert.ok(ready.bytes > 0)
  assert.ok(new Date(ready.expiresAt).getTime() - new Date(ready.readyAt).getTime() === 7 * 86_400_000, 'valid 7 days')
  const mail = t.mails.slice(mailsBefore).find((m) => m.to === 'demo@example.com')
  assert.ok(mail, 'she is told by e-mail')
  assert.match(mail!.subject, 'vos données sont prêtes')
  assert.match(mail!.link!, /\/informations-personnelles#mes-donnees$/)

  const listed: { id: number; orderId: number; raisonSociale: string }[] = (await get(t, camille, '/api-protected/documents')).json()
  assert.ok(listed.length > 30, 'the demo gives her letters')
  assert.is(ready.letters, listed.length)
  const { entries, into } = await download(ctx, camille, ready.file, 'camille')
  const letterFiles = entries.filter((e) => e.startsWith('Courrier/'))
  assert.is(letterFiles.length, listed.length, 'as many letter PDFs as the API lists')
  assert.is(new Set(letterFiles).size, letterFiles.length, 'unique names')

  const data = JSON.parse(await readFile(join(into, 'Données', 'donnees.json'), 'utf8'))
  assert.is(data.compte.email, 'demo@example.com')
  assert.is(data.courriers.length, listed.length)
  // Each letter's file, found by its name in the data, holds exactly what the API serves.
  for (const letter of listed) {
    const row = data.courriers.find((c: { numero: number }) => c.numero === letter.id)
    assert.ok(row, `letter ${letter.id} is in the data`)
    assert.match(row.fichier, new RegExp(`^Courrier/.+/\\d{4}-\\d{2}-\\d{2} .+ \\(courrier ${letter.id}\\)\\.pdf$`))
    const served = await get(t, camille, `/api-protected/documents/${letter.id}/file`)
    assert.ok(Buffer.compare(await readFile(join(into, row.fichier)), served.rawPayload) === 0, `letter ${letter.id} byte-identical`)
  }
  assert.ok(
    data.courriers.some((c: { texte: string | null }) => c.texte),
    'the letters’ text',
  )

  const orders = (await get(t, camille, '/api-protected/my-domiciliation-orders')).json() as { raisonSociale: string }[]
  assert.equal(data.domiciliations.map((o: { raisonSociale: string }) => o.raisonSociale).sort(), orders.map((o) => o.raisonSociale).sort())
  const invoices = [
    ...(await get(t, camille, '/api-protected/invoices')).json(),
    ...(await get(t, camille, '/api-protected/invoices/share')).json(),
  ]
  assert.ok(invoices.length > 0)
  assert.is(entries.filter((e) => e.startsWith('Factures/')).length, data.factures.length)
  assert.ok(data.factures.length >= invoices.length, 'every invoice she sees')
  assert.ok(
    entries.some((e) => e.startsWith('Attestations/Boulangerie des Lilas SAS/')),
    'her certificate',
  )
  assert.ok(
    entries.some((e) => e.startsWith('Contrats/Boulangerie des Lilas SAS/')),
    'her contract',
  )
  assert.not.ok(
    entries.some((e) => /^(Attestations|Contrats)\/Studio Nuage/.test(e)),
    'not the shared order’s owner papers',
  )
  for (const pdf of entries.filter((e) => e.endsWith('.pdf')))
    assert.is((await readFile(join(into, pdf))).subarray(0, 5).toString(), '%PDF-', pdf)

  // The CSVs: valid, one line per row of the JSON, the same letters.
  for (const [file, key] of [
    ['courriers', 'courriers'],
    ['colis', 'colis'],
    ['demandes-courrier', 'demandesCourrier'],
    ['factures', 'factures'],
    ['domiciliations', 'domiciliations'],
    ['echanges', 'echanges'],
    ['preferences-notifications', 'preferencesNotifications'],
  ] as const) {
    const rows = parseCsv(await readFile(join(into, 'Données', `${file}.csv`), 'utf8'))
    assert.is(rows.length - 1, data[key].length, `${file}.csv: one line per row`)
    for (const r of rows) assert.is(r.length, rows[0]!.length, `${file}.csv: every line has the header's cells`)
  }
  // « Mes échanges »: every message of the conversations she sees, as the API lists them.
  const conversations: { id: number }[] = (await get(t, camille, '/api-protected/conversations')).json()
  assert.equal(
    [...new Set(data.echanges.map((m: { conversation: number }) => m.conversation))].sort(),
    conversations.map((c) => c.id).sort(),
  )
  assert.ok(
    data.echanges.some(
      (m: { domiciliation: string; auteur: string; message: string; statut: string }) =>
        m.domiciliation === own.raisonSociale && m.auteur === 'Camille Martin' && m.message === 'Le courrier du 3 mars manque.',
    ),
    JSON.stringify(data.echanges),
  )
  const letterRows = parseCsv(await readFile(join(into, 'Données', 'courriers.csv'), 'utf8'))
  const idColumn = letterRows[0]!.indexOf('numero')
  assert.equal(
    letterRows
      .slice(1)
      .map((r) => Number(r[idColumn]))
      .sort(),
    listed.map((l) => l.id).sort(),
  )

  // Nobody else's: Sophie's address and company appear nowhere.
  const sophieOrder = (await get(t, ctx.sophie, '/api-protected/my-domiciliation-orders')).json()[0].raisonSociale as string
  const everything = [await readFile(join(into, 'Données', 'donnees.json'), 'utf8')]
  for (const e of entries.filter((x) => x.endsWith('.csv'))) everything.push(await readFile(join(into, e), 'utf8'))
  for (const text of everything) {
    assert.not.match(text, 'solo@example.com')
    assert.not.match(text, sophieOrder)
    assert.not.match(text, 'password')
  }
  assert.not.ok(
    entries.some((e) => e.includes(sophieOrder)),
    'none of her files',
  )
})

Export('a collaborator gets the orders shared with them, not the owner’s papers', async (ctx) => {
  const { t, julien } = ctx
  const ready = await prepare(t, julien)
  const { entries, into } = await download(ctx, julien, ready.file, 'julien')
  const data = JSON.parse(await readFile(join(into, 'Données', 'donnees.json'), 'utf8'))
  assert.equal(data.domiciliations.map((o: { raisonSociale: string; role: string }) => `${o.raisonSociale}:${o.role}`).sort(), [
    'Boulangerie des Lilas SAS:collaborateur',
    'Studio Nuage SAS:titulaire',
  ])
  const shared = data.domiciliations.find((o: { role: string }) => o.role === 'collaborateur')
  assert.is(shared.adresseReexpedition, undefined, 'the owner’s contract details are not his')
  const listed: unknown[] = (await get(t, julien, '/api-protected/documents')).json()
  assert.is(entries.filter((e) => e.startsWith('Courrier/')).length, listed.length)
  assert.ok(
    entries.some((e) => e.startsWith('Courrier/Boulangerie des Lilas SAS/')),
    'the shared order’s letters',
  )
  assert.not.ok(
    entries.some((e) => /^(Attestations|Contrats)\/Boulangerie/.test(e)),
    'no certificate nor contract of the shared order',
  )
  assert.not.ok(
    entries.some((e) => /Atelier Lumière|Conseil Horizon/.test(e)),
    'none of Camille’s orders that are not shared with him',
  )
  assert.is(data.compte.email, 'associe@example.com')
})

Export('for that person only: another person 404, no session 401', async (ctx) => {
  const { t, camille, julien } = ctx
  const [latest] = (await get(t, camille, '/api-protected/users/me/data-exports')).json()
  assert.is(latest.state, 'ready')
  for (const url of [`/api-protected/users/me/data-exports/${latest.id}`, latest.file]) {
    const other = await get(t, julien, url)
    assert.is(other.statusCode, 404, url)
    assert.match(other.json().message, 'introuvable')
    assert.is((await get(t, null, url)).statusCode, 401, url)
  }
  assert.not.ok(
    (await get(t, julien, '/api-protected/users/me/data-exports')).json().some((e: { id: number }) => e.id === latest.id),
    'not in his list',
  )
})

Export('one at a time: a second click answers the one being prepared; 409 until it is ready', async (ctx) => {
  const { t, sophie } = ctx
  const first = (await call(t.app, sophie, 'POST', '/api-protected/users/me/data-exports')).json()
  const again = (await call(t.app, sophie, 'POST', '/api-protected/users/me/data-exports')).json()
  assert.is(again.id, first.id)
  const file = await get(t, sophie, `/api-protected/users/me/data-exports/${first.id}/file`)
  assert.is(file.statusCode, 409)
  assert.match(file.json().message, 'en préparation')
  // Its job failed for good: the export says so, and a new click starts another.
  await t.deps.db.updateTable('jobs').set({ state: 'failed' }).where('kind', '=', DATA_EXPORT_JOB).where('state', '=', 'queued').execute()
  assert.is((await get(t, sophie, `/api-protected/users/me/data-exports/${first.id}`)).json().state, 'failed')
  const retried = (await call(t.app, sophie, 'POST', '/api-protected/users/me/data-exports')).json()
  assert.is.not(retried.id, first.id)
  assert.is(retried.state, 'preparing')
})

Export('after 7 days: a French 410, and the cleanup removes the file once', async (ctx) => {
  const { t, camille } = ctx
  const [latest] = (await get(t, camille, '/api-protected/users/me/data-exports')).json()
  const row = await t.deps.db.selectFrom('data_exports').select('file_key').where('id', '=', latest.id).executeTakeFirstOrThrow()
  assert.ok(await t.deps.storage.read(row.file_key!))
  t.clock.advance(7 * 86_400_000 + 60_000)
  const gone = await get(t, camille, latest.file)
  assert.is(gone.statusCode, 410)
  assert.match(gone.json().message, /^Ce lien a expiré le .+ : vos données ne restent disponibles que 7 jours\./)
  assert.is((await get(t, camille, `/api-protected/users/me/data-exports/${latest.id}`)).json().state, 'expired')
  assert.ok((await expireDataExports({ ...t.deps, now: t.clock.now() })) >= 1)
  assert.is(await t.deps.storage.read(row.file_key!), null, 'the file is deleted')
  assert.is(await expireDataExports({ ...t.deps, now: t.clock.now() }), 0, 'once')
  assert.is((await get(t, camille, latest.file)).statusCode, 410, 'still 410 afterwards')
  const after = (await get(t, camille, `/api-protected/users/me/data-exports/${latest.id}`)).json()
  assert.equal([after.state, after.file], ['expired', null])
})

Export.run()
