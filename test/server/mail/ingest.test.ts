// The operators' way in: `npm run ingest` on the embedded database or on DATABASE_URL, and the operator API.
// Letters are checked by content and stored atomically; each one is announced to the owner and the collaborators.
// tests: on S3 too (the command's store and the API's: what is stored, and nothing left behind by a refusal)
import { execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect, dropSchema, type DbHandle } from '../../../server/db/connect.ts'
import { migrateToLatest } from '../../../server/db/migrate.ts'
import { seedDemo } from '../../../server/demo/seed.ts'
import { ingestLetter } from '../../../server/services/ingest.ts'
import { fsStorage } from '../../../server/services/storage.ts'
import { main } from '../../../scripts/ingest.ts'
import { call, callBearer, TEST_OPERATOR_TOKEN } from '../../util/server.ts'
import { demoContext, tinyPdf, tinyPng, type DemoContext } from '../../util/server-samples.ts'
import { directoryStore, s3Store, testS3Url, withTestPrefix, type TestStore } from '../../util/storage.ts'

const root = join(import.meta.dirname, '..', '..', '..')

/** The stored keys, writes under way left out (`.tmp/…`). */
async function filesIn(keys: Promise<string[]>): Promise<string[]> {
  return (await keys).filter((key) => !key.startsWith('.tmp/'))
}

/** A console that keeps what the command prints. */
function recorder() {
  const lines = { out: [] as string[], err: [] as string[] }
  return { lines, out: { log: (m: string) => void lines.out.push(m), error: (m: string) => void lines.err.push(m) } as Console }
}

// --- The CLI, on its own database: a DATA_DIR (PGlite) or a schema of DATABASE_URL's PostgreSQL.
interface CliCtx {
  dir: string
  env: NodeJS.ProcessEnv
  handle: DbHandle
  schema?: string
  order: number
  atelier: number
  pdf: Buffer
  pdfPath: string
  /** The command's store: STORAGE_DIR, or with-s3.sh's bucket under a prefix of its own (STORAGE_URL). */
  store: TestStore
}

const cli = suite<CliCtx>('npm run ingest')

cli.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), 'portail-ingest-'))
  const dataDir = join(ctx.dir, 'data')
  const storageDir = join(ctx.dir, 'storage')
  const databaseUrl = process.env.DATABASE_URL || undefined
  ctx.schema = databaseUrl ? `test_${randomBytes(6).toString('hex')}` : undefined
  // The demo data, written once by a process that then lets go of the database, as `npm start` would.
  const seeding = await connect({ databaseUrl, dataDir, schema: ctx.schema })
  await migrateToLatest(seeding.db)
  const s3Url = testS3Url()
  ctx.store = s3Url ? await s3Store(withTestPrefix(s3Url, 'ingest')) : await directoryStore(storageDir)
  // The demo's own files on disk in either case: the tests look only at what the command stores (its store, ctx.store),
  // and seeding them into the bucket took some 13 s of the PostgreSQL and S3 stage.
  await seedDemo(seeding.db, fsStorage(storageDir), { now: new Date(), brandName: 'Domicilium' })
  await seeding.close()
  const url =
    databaseUrl && `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${ctx.schema}`)}`
  ctx.env = {
    DATA_DIR: dataDir,
    STORAGE_DIR: storageDir,
    ...(ctx.store.storageUrl ? { STORAGE_URL: ctx.store.storageUrl } : {}),
    PUBLIC_URL: 'https://portail.example.com',
    LOG_LEVEL: 'silent',
    ...(url ? { DATABASE_URL: url } : {}),
  }
  ctx.pdf = await tinyPdf('Avis de passage')
  ctx.pdfPath = join(ctx.dir, 'scan.pdf')
  await writeFile(ctx.pdfPath, ctx.pdf)
})

cli.after(async (ctx) => {
  if (process.env.DATABASE_URL && ctx.schema) await dropSchema(process.env.DATABASE_URL, ctx.schema)
  await ctx.store?.close()
  await rm(ctx.dir, { recursive: true, force: true })
})

/** Opens the CLI's database for a look, and closes it again (PGlite admits one process at a time). */
async function inspect<T>(ctx: CliCtx, look: (handle: DbHandle) => Promise<T>): Promise<T> {
  const handle = await connect({ databaseUrl: ctx.env.DATABASE_URL, dataDir: ctx.env.DATA_DIR })
  try {
    return await look(handle)
  } finally {
    await handle.close()
  }
}

cli('--list names every order with its id', async (ctx) => {
  const { lines, out } = recorder()
  assert.is(await main(['--list'], ctx.env, out), 0, lines.err.join('\n'))
  const boulangerie = lines.out.find((l) => l.includes('Boulangerie des Lilas SAS'))!
  assert.match(boulangerie, 'demo@example.com')
  ctx.order = Number(boulangerie.trim().split(/\s+/)[0])
  ctx.atelier = Number(
    lines.out
      .find((l) => l.includes('Atelier Lumière SARL'))!
      .trim()
      .split(/\s+/)[0],
  )
  assert.ok(ctx.order > 0 && ctx.atelier > 0)
})

cli('a letter: stored with its PDF, announced to the owner and the collaborator through the outbox', async (ctx) => {
  const { lines, out } = recorder()
  const code = await main(
    ['--order', String(ctx.order), '--sender', 'Tribunal de commerce', '--kind', 'recommandé', ctx.pdfPath],
    ctx.env,
    out,
  )
  assert.is(code, 0, lines.err.join('\n'))
  assert.match(lines.out[0]!, /^Courrier n° \d+ de Tribunal de commerce \(recommandé, 1 page\) ajouté à Boulangerie des Lilas SAS\.$/)
  const id = Number(/n° (\d+)/.exec(lines.out[0]!)![1])
  await inspect(ctx, async ({ db }) => {
    const row = await db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    assert.equal(
      [row.order_id, row.sender, row.kind, row.read, row.deleted, row.pages],
      [ctx.order, 'Tribunal de commerce', 'recommandé', false, false, 1],
    )
    assert.equal(Buffer.from((await ctx.store.storage.get(row.file_key))!), ctx.pdf, 'the very bytes, stored')
    const mails = await db
      .selectFrom('outbox')
      .selectAll()
      .where('subject', '=', 'Nouveau courrier de Tribunal de commerce')
      .orderBy('id')
      .execute()
    assert.equal(
      mails.map((m) => m.to_address),
      ['demo@example.com', 'associe@example.com'],
    )
    const link = `https://portail.example.com/mes-courriers/courriers?domiciliation=${ctx.order}&courrier=${id}`
    for (const mail of mails) assert.match(mail.text, link)
    assert.ok(lines.out.includes(`Lien : ${link}`))
  })
})

cli('a package', async (ctx) => {
  const { lines, out } = recorder()
  assert.is(
    await main(['--order', String(ctx.order), '--package', '--carrier', 'DHL Express', '--sender', 'Matfer'], ctx.env, out),
    0,
    lines.err.join('\n'),
  )
  assert.match(lines.out[0]!, /^Colis n° \d+ \(DHL Express, de Matfer\) ajouté à Boulangerie des Lilas SAS : « À retirer »\.$/)
  await inspect(ctx, async ({ db }) => {
    const row = await db
      .selectFrom('packages')
      .selectAll()
      .where('carrier', '=', 'DHL Express')
      .where('sender', '=', 'Matfer')
      .executeTakeFirstOrThrow()
    assert.equal([row.order_id, row.status], [ctx.order, 'À retirer'])
  })
})

cli(
  'the same text rule as the API: a sender or carrier shown reversed or with control characters is refused (the schema does not see this path)',
  async (ctx) => {
    const count = () =>
      inspect(ctx, async ({ db }) => [
        (await db.selectFrom('documents').select('id').execute()).length,
        (await db.selectFrom('packages').select('id').execute()).length,
      ])
    const rows = await count()
    for (const args of [
      ['--sender', 'URSSAF\u202e moc.liame'],
      ['--sender', 'La\u001b[31mPoste'],
      ['--package', '--carrier', 'DHL\u2066x\u2069', '--sender', 'Matfer'],
    ]) {
      const { lines, out } = recorder()
      assert.is(
        await main(['--order', String(ctx.order), ...args, ...(args.includes('--package') ? [] : [ctx.pdfPath])], ctx.env, out),
        1,
        JSON.stringify(args),
      )
      assert.match(
        lines.err.join('\n'),
        'contient des caractères invisibles de contrôle ou d’inversion du sens d’écriture',
        JSON.stringify(args),
      )
    }
    assert.equal(await count(), rows, 'nothing stored')
    // A line break in a shell argument is white space, folded to one space as before.
    const { lines, out } = recorder()
    assert.is(
      await main(['--order', String(ctx.order), '--package', '--carrier', 'Chrono\npost', '--sender', 'Matfer'], ctx.env, out),
      0,
      lines.err.join('\n'),
    )
    assert.match(lines.out[0]!, '(Chrono post, de Matfer)')
  },
)

cli('refuses what is not a PDF, in French, and stores nothing', async (ctx) => {
  const png = join(ctx.dir, 'photo.pdf')
  const truncated = join(ctx.dir, 'tronque.pdf')
  await writeFile(png, tinyPng)
  await writeFile(truncated, ctx.pdf.subarray(0, ctx.pdf.length - 40))
  const before = await filesIn(ctx.store.keys())
  const count = () => inspect(ctx, async ({ db }) => (await db.selectFrom('documents').select('id').execute()).length)
  const rows = await count()
  for (const file of [png, truncated]) {
    const { lines, out } = recorder()
    assert.is(await main(['--order', String(ctx.order), '--sender', 'Banque', file], ctx.env, out), 1)
    assert.match(lines.err.join('\n'), 'n’est pas un PDF valide')
  }
  assert.equal(await filesIn(ctx.store.keys()), before, 'no file left behind')
  assert.is(await count(), rows, 'no row')
})

cli('wrong usage: a French message, the usage, exit code 2', async (ctx) => {
  for (const args of [
    [],
    ['--order', 'abc', '--sender', 'X', ctx.pdfPath],
    ['--order', '1', ctx.pdfPath],
    ['--order', '1', '--sender', 'X'],
    ['--order', '1', '--sender', 'X', '--kind', 'colis', ctx.pdfPath],
    ['--order', '1', '--package', '--sender', 'X'],
    ['--inconnu'],
  ]) {
    const { lines, out } = recorder()
    assert.is(await main(args, ctx.env, out), 2, args.join(' '))
    assert.match(lines.err.join('\n'), 'npm run ingest -- --order <id>')
  }
  const { lines, out } = recorder()
  assert.is(await main(['--order', '999999', '--sender', 'X', ctx.pdfPath], ctx.env, out), 1)
  assert.equal(lines.err, ['Domiciliation introuvable.'])
})

if (!process.env.DATABASE_URL) {
  cli('while another live process holds the embedded database, it refuses in French and touches nothing', async (ctx) => {
    const lock = join(ctx.env.DATA_DIR!, 'pglite.lock')
    await writeFile(lock, String(process.ppid))
    try {
      const { lines, out } = recorder()
      assert.is(await main(['--order', String(ctx.order), '--sender', 'Banque', ctx.pdfPath], ctx.env, out), 1)
      assert.match(lines.err.join('\n'), 'déjà ouverte par un autre processus')
      assert.match(lines.err.join('\n'), 'API opérateur')
      // mail pipeline: without the operators' token it cannot hand the letter to the server.
      assert.match(lines.err.join('\n'), 'définissez OPERATOR_TOKEN')
      assert.is(await readFile(lock, 'utf8'), String(process.ppid), 'the owner keeps its lock')
    } finally {
      await rm(lock, { force: true })
    }
  })

  // mail pipeline, part 6
  cli('while the server runs on the embedded database, the command goes through its operator API', async (ctx) => {
    const token = 'jeton-operateur-de-la-commande-0123456789'
    const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'server.ts')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: { ...process.env, ...ctx.env, PORT: '0', OPERATOR_TOKEN: token, JOB_WORKER: 'false', DIST_DIR: join(ctx.dir, 'no-dist') },
    })
    const stopped = new Promise((resolve) => server.once('exit', resolve))
    try {
      await new Promise<void>((resolve, reject) => {
        server.on('message', (m: { ready?: boolean }) => m.ready && resolve())
        server.once('exit', (code) => reject(new Error(`le serveur s’est arrêté (${code})`)))
      })
      const info = JSON.parse(await readFile(join(ctx.env.DATA_DIR!, 'server.json'), 'utf8'))
      assert.is(info.pid, server.pid)
      const withToken = { ...ctx.env, OPERATOR_TOKEN: token }
      const letter = recorder()
      assert.is(
        await main(['--order', String(ctx.order), '--sender', 'La Poste', '--kind', 'recommandé', ctx.pdfPath], withToken, letter.out),
        0,
        letter.lines.err.join('\n'),
      )
      assert.match(letter.lines.out.join('\n'), 'par son API opérateur')
      assert.match(letter.lines.out.join('\n'), /Courrier n° \d+ de La Poste \(recommandé, 1 page\) ajouté à Boulangerie des Lilas SAS\./)
      const parcel = recorder()
      assert.is(
        await main(['--order', String(ctx.order), '--package', '--carrier', 'DHL', '--sender', 'Fournil & Co'], withToken, parcel.out),
        0,
        parcel.lines.err.join('\n'),
      )
      assert.match(parcel.lines.out.join('\n'), /Colis n° \d+ \(DHL, de Fournil & Co\) ajouté à Boulangerie des Lilas SAS/)
      const list = recorder()
      assert.is(await main(['--list'], withToken, list.out), 0)
      assert.match(list.lines.out.join('\n'), 'Boulangerie des Lilas SAS')
      const refused = recorder()
      assert.is(
        await main(
          ['--order', String(ctx.order), '--sender', 'La Poste', ctx.pdfPath],
          { ...ctx.env, OPERATOR_TOKEN: `${token}-faux` },
          refused.out,
        ),
        1,
      )
      assert.match(refused.lines.err.join('\n'), /jeton opérateur invalide/i)
    } finally {
      server.kill('SIGTERM')
      await stopped
    }
    assert.is(
      await readFile(join(ctx.env.DATA_DIR!, 'server.json'), 'utf8').catch(() => null),
      null,
      'the server removes its file when it stops',
    )
    // The letter is in the database with its pipeline job, as if the command had written it itself.
    await inspect(ctx, async ({ db }) => {
      const row = await db.selectFrom('documents').select(['id', 'kind']).where('sender', '=', 'La Poste').executeTakeFirstOrThrow()
      assert.is(row.kind, 'recommandé')
      const job = await db
        .selectFrom('jobs')
        .select('payload')
        .where('kind', '=', 'letter-pipeline')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      assert.equal(job.payload, { documentId: row.id })
      assert.ok(await db.selectFrom('packages').select('id').where('carrier', '=', 'DHL').executeTakeFirst())
    })
  })

  cli(
    'through the server, each letter and package carries its own Idempotency-Key, the same on each retry after a lost answer',
    async (ctx) => {
      // A stand-in for the server: it cuts the connection of each call's first send (the answer lost), answers the second.
      const received: { path: string; key: string | undefined }[] = []
      const fake = createServer((req, res) => {
        req.resume()
        req.on('end', () => {
          received.push({ path: req.url!, key: req.headers['idempotency-key'] as string | undefined })
          const sends = received.filter((r) => r.key === received.at(-1)!.key).length
          if (sends === 1) return void req.socket.destroy()
          const letter = { id: 41, sender: 'La Poste', kind: 'courrier', pages: 1, raisonSociale: 'Boulangerie des Lilas SAS' }
          res.setHeader('content-type', 'application/json')
          res.end(
            JSON.stringify(
              req.url!.endsWith('/packages')
                ? { id: 42, carrier: 'DHL', sender: 'Matfer', status: 'À retirer', raisonSociale: 'Boulangerie des Lilas SAS' }
                : { document: letter, link: 'https://portail.example.com/mes-courriers', notified: [] },
            ),
          )
        })
      })
      await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve))
      const lock = join(ctx.env.DATA_DIR!, 'pglite.lock')
      await writeFile(lock, String(process.ppid))
      await writeFile(
        join(ctx.env.DATA_DIR!, 'server.json'),
        JSON.stringify({ pid: process.ppid, url: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` }),
      )
      try {
        const env = { ...ctx.env, OPERATOR_TOKEN: 'jeton-operateur-de-la-commande-0123456789' }
        for (const args of [
          ['--sender', 'La Poste', ctx.pdfPath],
          ['--sender', 'La Poste', ctx.pdfPath],
          ['--package', '--carrier', 'DHL', '--sender', 'Matfer'],
        ]) {
          const { lines, out } = recorder()
          assert.is(await main(['--order', String(ctx.order), ...args], env, out, 1), 0, lines.err.join('\n'))
          assert.match(lines.err.join('\n'), 'nouvel essai (2/3)')
        }
        assert.is(received.length, 6, 'each call sent twice')
        const keys = received.map((r) => r.key)
        for (const key of keys) assert.match(key ?? '', /^[0-9a-f-]{36}$/, 'a UUID')
        assert.equal([keys[0] === keys[1], keys[2] === keys[3], keys[4] === keys[5]], [true, true, true], 'the same key on the retry')
        assert.is(new Set(keys).size, 3, 'a key of its own for each letter and package (the same letter sent again is another letter)')
      } finally {
        fake.close()
        await rm(lock, { force: true })
        await rm(join(ctx.env.DATA_DIR!, 'server.json'), { force: true })
      }
    },
  )

  cli('through the server, a call that never gets an answer is sent three times at most, then told in French', async (ctx) => {
    const keys: (string | undefined)[] = []
    const fake = createServer((req) => {
      keys.push(req.headers['idempotency-key'] as string | undefined)
      req.socket.destroy()
    })
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve))
    const lock = join(ctx.env.DATA_DIR!, 'pglite.lock')
    await writeFile(lock, String(process.ppid))
    await writeFile(
      join(ctx.env.DATA_DIR!, 'server.json'),
      JSON.stringify({ pid: process.ppid, url: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` }),
    )
    try {
      const { lines, out } = recorder()
      assert.is(
        await main(
          ['--order', String(ctx.order), '--package', '--carrier', 'DHL', '--sender', 'Matfer'],
          { ...ctx.env, OPERATOR_TOKEN: 'jeton-operateur-de-la-commande-0123456789' },
          out,
          1,
        ),
        1,
      )
      assert.match(lines.err.join('\n'), 'ne répond pas')
      assert.is(keys.length, 3)
      assert.is(new Set(keys).size, 1, 'one key for the three sends')
    } finally {
      fake.close()
      await rm(lock, { force: true })
      await rm(join(ctx.env.DATA_DIR!, 'server.json'), { force: true })
    }
  })

  cli('a lock left by a process that died is taken over', async (ctx) => {
    await writeFile(join(ctx.env.DATA_DIR!, 'pglite.lock'), '2147483646')
    const { lines, out } = recorder()
    assert.is(await main(['--list'], ctx.env, out), 0, lines.err.join('\n'))
  })
}

cli('runs as `npm run ingest` from a shell', async (ctx) => {
  const { stdout } = await promisify(execFile)(
    'npm',
    ['run', '--silent', 'ingest', '--', '--order', String(ctx.order), '--sender', 'EDF Entreprises', ctx.pdfPath],
    { cwd: root, env: { ...process.env, ...ctx.env } },
  )
  assert.match(stdout, /Courrier n° \d+ de EDF Entreprises \(courrier, 1 page\) ajouté à Boulangerie des Lilas SAS\./)
})

cli.run()

// --- The operator API, and what customers see of the new mail.
const api = suite<DemoContext>('the operator API and who sees the new mail')
api.before(async (ctx) => void (await demoContext(ctx, 'Relevé')))
api.after((ctx) => ctx.t?.close())

const postLetter = (ctx: DemoContext, orderId: number, body: Record<string, unknown>, token = TEST_OPERATOR_TOKEN) =>
  ctx.t.app.inject({
    method: 'POST',
    url: `/api/operator/domiciliation-orders/${orderId}/documents`,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  })
const dataUrl = (bytes: Buffer) => `data:application/pdf;base64,${bytes.toString('base64')}`

api('bad files get a French 4xx and leave nothing behind', async (ctx) => {
  const before = await filesIn(ctx.t.storedKeys())
  const rows = (await ctx.t.deps.db.selectFrom('documents').select('id').execute()).length
  const mails = ctx.t.mails.length
  for (const [file, status, message] of [
    [dataUrl(tinyPng), 400, 'n’est pas un PDF valide'],
    [dataUrl(ctx.pdf.subarray(0, ctx.pdf.length - 40)), 400, 'n’est pas un PDF valide'],
    [dataUrl(Buffer.from('%PDF-1.7\nrien de lisible\n%%EOF\n')), 400, 'n’est pas un PDF lisible'],
    ['https://example.com/scan.pdf', 400, 'data URL'],
    // PDF bytes declared as something else (taken)
    [`data:text/html;base64,${ctx.pdf.toString('base64')}`, 400, 'data:application/pdf;base64'],
    [`data:;base64,${ctx.pdf.toString('base64')}`, 400, 'data:application/pdf;base64'],
    [dataUrl(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(11 * 1024 * 1024, 0x20), ctx.pdf.subarray(-32)])), 413, '10 Mo'],
  ] as const) {
    const res = await postLetter(ctx, ctx.ids.order, { sender: 'Banque', file })
    assert.is(res.statusCode, status, res.body)
    assert.match(res.json().message, message)
  }
  const unknown = await postLetter(ctx, 999999, { sender: 'Banque', file: dataUrl(ctx.pdf) })
  assert.is(unknown.statusCode, 404)
  assert.equal(unknown.json().message, 'Domiciliation introuvable.')
  const blank = await postLetter(ctx, ctx.ids.order, { sender: '   ', file: dataUrl(ctx.pdf) })
  assert.is(blank.statusCode, 400)
  // A sender shown reversed (U+202E), a bell, escape sequences: refused (shown as they came).
  for (const sender of ['URSSAF\u202e moc.liame-gnihsihp', 'Banque\u0007', 'La\u001b[31mPoste', 'Impôts\u2066x\u2069', 'Banque\u0085']) {
    const hidden = await postLetter(ctx, ctx.ids.order, { sender, file: dataUrl(ctx.pdf) })
    assert.is(hidden.statusCode, 400, `${JSON.stringify(sender)}: ${hidden.body}`)
    assert.match(hidden.json().message, 'Le champ « sender » ne peut contenir ni retour à la ligne ni caractère invisible de contrôle')
  }
  const controlCarrier = await callBearer(
    ctx.t.app,
    TEST_OPERATOR_TOKEN,
    'POST',
    `/api/operator/domiciliation-orders/${ctx.ids.order}/packages`,
    { carrier: 'La\b\bPoste', sender: 'Banque' },
  )
  assert.is(controlCarrier.statusCode, 400, controlCarrier.body)
  const yearZero = await postLetter(ctx, ctx.ids.order, { sender: 'Banque', file: dataUrl(ctx.pdf), receivedAt: '0000-01-01T00:00:00Z' })
  assert.is(yearZero.statusCode, 400, yearZero.body)
  assert.match(yearZero.json().message, '« receivedAt » ne peut pas être antérieur au 1er janvier 2000')
  const packages = (await ctx.t.deps.db.selectFrom('packages').select('id').execute()).length
  const oldPackage = await callBearer(
    ctx.t.app,
    TEST_OPERATOR_TOKEN,
    'POST',
    `/api/operator/domiciliation-orders/${ctx.ids.order}/packages`,
    { carrier: 'La Poste', sender: 'Banque', receivedAt: '1999-12-31T23:59:59Z' },
  )
  assert.is(oldPackage.statusCode, 400, oldPackage.body)
  assert.is((await ctx.t.deps.db.selectFrom('packages').select('id').execute()).length, packages, 'no package')
  assert.equal(await filesIn(ctx.t.storedKeys()), before, 'no file')
  assert.is((await ctx.t.deps.db.selectFrom('documents').select('id').execute()).length, rows, 'no row')
  assert.is(ctx.t.mails.length, mails, 'nobody told')
})

api(
  'retries: the same Idempotency-Key makes one letter and one package, tells nobody twice, and refuses another use of the key',
  async (ctx) => {
    const { db } = ctx.t.deps
    const count = async (table: 'documents' | 'packages') => (await db.selectFrom(table).select('id').execute()).length
    const send = (url: string, body: object, key?: string) =>
      ctx.t.app.inject({
        method: 'POST',
        url: `/api/operator/domiciliation-orders/${ctx.ids.order}/${url}`,
        payload: body,
        headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}`, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      })
    // Received long ago: the suite's other tests look for their own letter at the head of the list.
    const letter = { sender: 'Banque Populaire', kind: 'recommandé', file: dataUrl(ctx.pdf), receivedAt: '2025-06-02T08:00:00Z' }
    const [documents, files, mails] = [await count('documents'), await filesIn(ctx.t.storedKeys()), ctx.t.mails.length]

    const first = await send('documents', letter, 'scan-2026-11-27-0001')
    assert.is(first.statusCode, 200, first.body)
    assert.ok(first.json().notified.length > 0)
    assert.is(first.headers['idempotent-replayed'], undefined)
    const mailsAfterFirst = ctx.t.mails.length
    // A retry after a lost answer, then several at once.
    const retries = [
      await send('documents', letter, 'scan-2026-11-27-0001'),
      ...(await Promise.all([1, 2, 3].map(() => send('documents', letter, 'scan-2026-11-27-0001')))),
    ]
    for (const retry of retries) {
      assert.is(retry.statusCode, 200, retry.body)
      assert.is(retry.headers['idempotent-replayed'], 'true')
      assert.is(retry.json().document.id, first.json().document.id)
      assert.is(retry.json().link, first.json().link)
      assert.equal(retry.json().notified, [], 'nobody told again')
    }
    assert.is(await count('documents'), documents + 1)
    assert.is((await filesIn(ctx.t.storedKeys())).length, files.length + 1, 'one file')
    assert.is(ctx.t.mails.length, mailsAfterFirst)
    assert.ok(mailsAfterFirst > mails)

    const other = await send('documents', { ...letter, sender: 'URSSAF' }, 'scan-2026-11-27-0001')
    assert.is(other.statusCode, 422, other.body)
    assert.is(other.json().message, 'Cette clé Idempotency-Key a déjà servi pour un autre envoi : envoyez celui-ci avec une nouvelle clé.')
    for (const key of ['', 'avec espace', 'é', 'x'.repeat(256)]) {
      const bad = await send('documents', letter, key)
      assert.is(bad.statusCode, 400, `${JSON.stringify(key)}: ${bad.body}`)
      assert.match(bad.json().message, 'Idempotency-Key')
    }
    assert.is(await count('documents'), documents + 1, 'nothing more stored')
    assert.is((await send('documents', letter)).statusCode, 200, 'without a key, each call is a letter')
    assert.is(await count('documents'), documents + 2)

    const parcel = { carrier: 'Colissimo', sender: 'Moulins Bourgeois', receivedAt: '2025-06-02T08:00:00Z' }
    const packages = await count('packages')
    const parcels = await Promise.all([1, 2, 3].map(() => send('packages', parcel, 'colis-0001')))
    assert.equal(
      parcels.map((p) => p.statusCode),
      [200, 200, 200],
    )
    assert.is(new Set(parcels.map((p) => p.json().id)).size, 1)
    assert.equal(parcels.map((p) => p.headers['idempotent-replayed'] ?? 'first').sort(), ['first', 'true', 'true'])
    assert.is(await count('packages'), packages + 1)
    assert.is((await send('packages', { ...parcel, carrier: 'DHL' }, 'colis-0001')).statusCode, 422)
    assert.is((await send('packages', parcel, 'scan-2026-11-27-0001')).statusCode, 200, 'letters and packages have their own keys')
  },
)

api('a database failure after the file was written removes the file', async (ctx) => {
  const before = await filesIn(ctx.t.storedKeys())
  const failing = new Proxy(ctx.t.deps.db, {
    get: (target, property) => {
      if (property === 'insertInto')
        return () => {
          throw new Error('panne de la base')
        }
      // notify: the row is written in a transaction with its history and notification.
      if (property === 'transaction')
        return () => ({
          execute: async () => {
            throw new Error('panne de la base')
          },
        })
      const value = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  const failure = await ingestLetter({ ...ctx.t.deps, db: failing }, { orderId: ctx.ids.order, sender: 'Banque', bytes: ctx.pdf }).then(
    () => null,
    (error: Error) => error,
  )
  assert.match(failure?.message ?? 'no failure', 'panne de la base')
  assert.equal(await filesIn(ctx.t.storedKeys()), before)
})

api('a new letter reaches the owner and the collaborator, in their lists and by e-mail; nobody else', async (ctx) => {
  const mails = ctx.t.mails.length
  const res = await postLetter(ctx, ctx.ids.order, {
    sender: 'Greffe du tribunal',
    kind: 'recommandé',
    file: dataUrl(ctx.pdf),
    receivedAt: new Date(Date.now() - 60_000).toISOString(),
  })
  assert.is(res.statusCode, 200, res.body)
  const { document, link, notified } = res.json()
  const sent = ctx.t.mails.slice(mails)
  assert.equal(
    sent.map((m) => [m.to, m.subject]),
    [
      ['demo@example.com', 'Nouveau courrier de Greffe du tribunal'],
      ['associe@example.com', 'Nouveau courrier de Greffe du tribunal'],
    ],
  )
  assert.equal(notified, ['demo@example.com', 'associe@example.com'])
  for (const mail of sent) {
    assert.is(mail.link, link)
    assert.match(mail.text, link)
  }
  for (const token of [ctx.camille, ctx.julien]) {
    const list = (await call(ctx.t.app, token, 'GET', `/api-protected/documents?orderId=${ctx.ids.order}`)).json()
    assert.equal(list[0], document, 'at the head of the list, unread')
    const file = await call(ctx.t.app, token, 'GET', `/api-protected/documents/${document.id}/file`)
    assert.is(file.statusCode, 200)
    assert.equal(file.rawPayload, ctx.pdf)
  }
  const stranger = await call(ctx.t.app, ctx.sophie, 'GET', `/api-protected/documents/${document.id}/file`)
  assert.is(stranger.statusCode, 404)
  assert.not.ok(
    (await call(ctx.t.app, ctx.sophie, 'GET', '/api-protected/documents')).json().some((d: { id: number }) => d.id === document.id),
  )
})

api('a collaborator sees the shared mail and nothing else of the owner', async (ctx) => {
  const mails = ctx.t.mails.length
  const res = await postLetter(ctx, ctx.atelier, { sender: 'Impôts', file: dataUrl(ctx.pdf) })
  assert.is(res.statusCode, 200, res.body)
  const { document } = res.json()
  assert.equal(
    ctx.t.mails.slice(mails).map((m) => m.to),
    ['demo@example.com'],
    'the order is not shared: only its owner is told',
  )
  const julienSees = (await call(ctx.t.app, ctx.julien, 'GET', '/api-protected/documents')).json() as { orderId: number; id: number }[]
  const julienOrders = (await call(ctx.t.app, ctx.julien, 'GET', '/api-protected/my-domiciliation-orders'))
    .json()
    .map((o: { id: number }) => o.id)
    .sort()
  assert.equal(julienOrders, [ctx.ids.order, ctx.ids.sharedOrder].sort())
  assert.ok(
    julienSees.every((d) => julienOrders.includes(d.orderId)),
    'only the letters of his order and of the shared one',
  )
  assert.not.ok(julienSees.some((d) => d.id === document.id))
  assert.is((await call(ctx.t.app, ctx.julien, 'GET', `/api-protected/documents/${document.id}/file`)).statusCode, 404)
  assert.is((await call(ctx.t.app, ctx.julien, 'PUT', `/api-protected/documents/${document.id}`, { readFlag: true })).statusCode, 404)
  assert.is((await call(ctx.t.app, ctx.julien, 'GET', `/api-protected/user-packages/share?orderId=${ctx.atelier}`)).statusCode, 404)
  const camilleSees = (await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/documents?orderId=${ctx.atelier}`)).json()
  assert.is(camilleSees[0].id, document.id)
})

api('the operator API is documented in the OpenAPI document, with its own security scheme', async (ctx) => {
  const doc = (await ctx.t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
  const post = doc.paths['/api/operator/domiciliation-orders/{id}/documents'].post
  assert.equal(post.security, [{ operator: [] }])
  assert.ok(post.requestBody.content['application/json'].schema.properties.file)
  assert.ok(doc.paths['/api/operator/domiciliation-orders/{id}/packages'].post)
  assert.ok(
    doc.paths['/api/operator/domiciliation-orders/{id}/invoices'].post.requestBody.content['application/json'].schema.properties
      .amountInclTaxCents,
  )
  assert.ok(doc.paths['/api/operator/domiciliation-orders'].get)
  assert.match(doc.components.securitySchemes.operator.description, 'OPERATOR_TOKEN')
})

api.run()

// --- Invoices issued by an operator: listed, in the bell of who sees the order, and nothing stored for bad input.
const invoicing = suite<DemoContext>('invoices issued by an operator')
invoicing.before(async (ctx) => void (await demoContext(ctx, 'Facture')))
invoicing.after((ctx) => ctx.t?.close())

const postInvoice = (ctx: DemoContext, orderId: number, body: Record<string, unknown>) =>
  ctx.t.app.inject({
    method: 'POST',
    url: `/api/operator/domiciliation-orders/${orderId}/invoices`,
    headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
    payload: body,
  })
const invoiceBody = (ctx: DemoContext, reference: string, extra: Record<string, unknown> = {}) => ({
  reference,
  amountExclTaxCents: 2900,
  amountInclTaxCents: 3480,
  file: dataUrl(ctx.pdf),
  ...extra,
})

/** What an invoice leaves behind: files, invoice rows, notifications. */
async function traces(ctx: DemoContext) {
  const { db } = ctx.t.deps
  const count = async (table: 'invoices' | 'notifications') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  return { files: await filesIn(ctx.t.storedKeys()), invoices: await count('invoices'), notifications: await count('notifications') }
}

invoicing(
  'a new invoice: in the owner’s and the collaborator’s lists and bells, unpaid, its PDF served; nobody else sees it',
  async (ctx) => {
    const unpaidBefore = (await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/user-unpaid-status')).json()
    const res = await postInvoice(
      ctx,
      ctx.ids.order,
      invoiceBody(ctx, 'FA-2026-NOUVELLE', { date: new Date(Date.now() - 3_600_000).toISOString() }),
    )
    assert.is(res.statusCode, 200, res.body)
    const invoice = res.json()
    assert.equal([invoice.number, invoice.paid, invoice.amountInclTaxCents], ['FA-2026-NOUVELLE', false, 3480])
    const year = new Date(invoice.date).toLocaleString('fr-FR', { year: 'numeric', timeZone: 'Europe/Paris' })
    const own = (await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/invoices?year=${year}`)).json()
    assert.equal(
      own.find((i: { id: number }) => i.id === invoice.id),
      invoice,
    )
    const shared = (await call(ctx.t.app, ctx.julien, 'GET', `/api-protected/invoices/share?year=${year}`)).json()
    assert.ok(
      shared.some((i: { id: number }) => i.id === invoice.id),
      'the collaborator, among the shared orders’ invoices',
    )
    const unpaid = (await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/user-unpaid-status')).json()
    assert.equal([unpaid.count, unpaid.amountInclTaxCents], [unpaidBefore.count + 1, unpaidBefore.amountInclTaxCents + 3480])
    for (const token of [ctx.camille, ctx.julien]) {
      const bell = (await call(ctx.t.app, token, 'GET', '/api-protected/notifications')).json()
      const notice = bell.notifications.find((n: { body: string }) => n.body.startsWith('Facture FA-2026-NOUVELLE '))
      assert.equal([notice?.title, notice?.kind, notice?.link, notice?.read], ['Nouvelle facture', 'invoice', '/factures', false])
      assert.match(notice.body, /de 34,80\s€ — Boulangerie des Lilas SAS$/)
    }
    const sophie = (await call(ctx.t.app, ctx.sophie, 'GET', '/api-protected/notifications')).json()
    assert.not.ok(sophie.notifications.some((n: { body: string }) => n.body.includes('FA-2026-NOUVELLE')))
    const file = await call(ctx.t.app, ctx.camille, 'GET', `/api-protected/invoices/${invoice.id}/file`)
    assert.is(file.statusCode, 200)
    assert.equal(file.rawPayload, ctx.pdf)
    assert.is((await call(ctx.t.app, ctx.sophie, 'GET', `/api-protected/invoices/${invoice.id}/file`)).statusCode, 404)
    assert.is(ctx.t.mails.filter((m) => m.text.includes('FA-2026-NOUVELLE')).length, 0, 'the bell only: no e-mail')
  },
)

invoicing('an exempt invoice (TTC = HT) and the rounding of a 20 % one (a few cents) are taken', async (ctx) => {
  for (const [reference, ht, ttc] of [
    ['FA-2026-EXONEREE', 2900, 2900],
    ['FA-2026-ARRONDI', 2900, 3483],
  ] as const) {
    const res = await postInvoice(
      ctx,
      ctx.ids.order,
      invoiceBody(ctx, reference, { amountExclTaxCents: ht, amountInclTaxCents: ttc, paid: true }),
    )
    assert.is(res.statusCode, 200, `${reference}: ${res.body}`)
  }
})

invoicing('an invoice already settled is listed paid and adds nothing to pay', async (ctx) => {
  const before = (await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/user-unpaid-status')).json()
  const res = await postInvoice(ctx, ctx.ids.order, invoiceBody(ctx, 'FA-2026-REGLEE', { paid: true }))
  assert.is(res.statusCode, 200, res.body)
  assert.is(res.json().paid, true)
  assert.equal((await call(ctx.t.app, ctx.camille, 'GET', '/api-protected/user-unpaid-status')).json(), before)
})

invoicing('bad input gets a French 4xx and leaves no file, no invoice, no notification', async (ctx) => {
  const before = await traces(ctx)
  await postInvoice(ctx, ctx.ids.order, invoiceBody(ctx, 'FA-2026-DOUBLON'))
  const afterFirst = await traces(ctx)
  const future = new Date(Date.now() + 86_400_000).toISOString()
  for (const [orderId, body, status, message] of [
    [ctx.ids.order, invoiceBody(ctx, 'FA-2026-DOUBLON'), 409, 'La facture FA-2026-DOUBLON existe déjà'],
    [ctx.ids.order, invoiceBody(ctx, 'FA 2026/01'), 400, '« reference » ne peut contenir que'],
    [ctx.ids.order, invoiceBody(ctx, 'Facture-n°1'), 400, '« reference » ne peut contenir que'],
    [ctx.ids.order, invoiceBody(ctx, '-FA-1'), 400, '« reference » ne peut contenir que'],
    [ctx.ids.order, invoiceBody(ctx, 'FA-2026-TTC', { amountInclTaxCents: 2000 }), 400, 'ne peut pas être inférieur au montant HT'],
    [ctx.ids.order, invoiceBody(ctx, 'fa-2026-doublon'), 409, 'La facture fa-2026-doublon existe déjà'],
    [ctx.ids.order, invoiceBody(ctx, 'FA-2026-NEG', { amountExclTaxCents: -1 }), 400, 'amountExclTaxCents'],
    // More tax than 20 %: a mix-up (taken, shown and payable)
    [ctx.ids.order, invoiceBody(ctx, 'FA-2026-HT0', { amountExclTaxCents: 0, amountInclTaxCents: 5000 }), 400, 'augmenté de la TVA à 20 %'],
    [
      ctx.ids.order,
      invoiceBody(ctx, 'FA-2026-CENTS', { amountExclTaxCents: 1, amountInclTaxCents: 100_000_000 }),
      400,
      'augmenté de la TVA à 20 %',
    ],
    [
      ctx.ids.order,
      invoiceBody(ctx, 'FA-2026-TVA', { amountExclTaxCents: 2900, amountInclTaxCents: 3486 }),
      400,
      'augmenté de la TVA à 20 %',
    ],
    [
      ctx.ids.order,
      invoiceBody(ctx, 'FA-2026-PDF-TYPE', { file: `data:image/png;base64,${ctx.pdf.toString('base64')}` }),
      400,
      'data:application/pdf;base64',
    ],
    [ctx.ids.order, invoiceBody(ctx, 'FA-2026-FUTUR', { date: future }), 400, '« date » ne peut pas être dans le futur'],
    [
      ctx.ids.order,
      invoiceBody(ctx, 'FA-0000', { date: '0000-01-01T00:00:00Z' }),
      400,
      '« date » ne peut pas être antérieur au 1er janvier 2000',
    ],
    [
      ctx.ids.order,
      invoiceBody(ctx, 'FA-0026', { date: '0026-03-01T10:00:00Z' }),
      400,
      '« date » ne peut pas être antérieur au 1er janvier 2000',
    ],
    [ctx.ids.order, invoiceBody(ctx, 'FA-2026-PNG', { file: dataUrl(tinyPng) }), 400, 'La facture n’est pas un PDF valide'],
    [ctx.ids.order, invoiceBody(ctx, 'FA-2026-URL', { file: 'https://example.com/facture.pdf' }), 400, 'data URL'],
    [999999, invoiceBody(ctx, 'FA-2026-INCONNUE'), 404, 'Domiciliation introuvable.'],
  ] as const) {
    const res = await postInvoice(ctx, orderId, body)
    assert.is(res.statusCode, status, `${body.reference}: ${res.body}`)
    assert.match(res.json().message, message)
  }
  assert.equal(await traces(ctx), afterFirst, 'nothing stored by the refused ones')
  assert.is(afterFirst.invoices, before.invoices + 1)
})

invoicing('the same number sent at once by several operators: one invoice, the others told it exists, no file left', async (ctx) => {
  const before = await traces(ctx)
  const answers = await Promise.all(Array.from({ length: 8 }, () => postInvoice(ctx, ctx.ids.order, invoiceBody(ctx, 'FA-2026-COURSE'))))
  assert.equal(answers.map((a) => a.statusCode).sort(), [200, 409, 409, 409, 409, 409, 409, 409])
  const after = await traces(ctx)
  assert.is(after.invoices, before.invoices + 1)
  assert.is(after.notifications, before.notifications + 1)
  assert.is(after.files.length, before.files.length + 1)
})

const postInvoiceWithKey = (ctx: DemoContext, orderId: number, body: Record<string, unknown>, key: string) =>
  ctx.t.app.inject({
    method: 'POST',
    url: `/api/operator/domiciliation-orders/${orderId}/invoices`,
    payload: body,
    headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}`, 'idempotency-key': key },
  })

invoicing(
  'retries: the same Idempotency-Key answers the first invoice again (not 409), makes and announces nothing; another body with it: 422',
  async (ctx) => {
    const before = await traces(ctx)
    const body = invoiceBody(ctx, 'FA-2026-REPRISE')
    const first = await postInvoiceWithKey(ctx, ctx.ids.order, body, 'facture-reprise-1')
    assert.is(first.statusCode, 200, first.body)
    assert.is(first.headers['idempotent-replayed'], undefined)
    const afterFirst = await traces(ctx)
    assert.is(afterFirst.invoices, before.invoices + 1)
    // The answer was lost: the operator sends it again, with the same key.
    const again = await postInvoiceWithKey(ctx, ctx.ids.order, body, 'facture-reprise-1')
    assert.is(again.statusCode, 200, again.body)
    assert.equal(again.json(), first.json(), 'the first answer again')
    assert.is(again.headers['idempotent-replayed'], 'true')
    assert.equal(await traces(ctx), afterFirst, 'no second invoice, file nor notification')
    // The same key with something else (another amount, another order): the letters' 422, nothing made.
    for (const [orderId, other] of [
      [ctx.ids.order, invoiceBody(ctx, 'FA-2026-REPRISE', { amountExclTaxCents: 3000, amountInclTaxCents: 3600 })],
      [ctx.ids.order, invoiceBody(ctx, 'FA-2026-AUTRE')],
      [ctx.ids.sharedOrder, body],
    ] as const) {
      const reused = await postInvoiceWithKey(ctx, orderId, other, 'facture-reprise-1')
      assert.is(reused.statusCode, 422, reused.body)
      assert.is(reused.json().code, 'IDEMPOTENCY_KEY_REUSED')
    }
    // Another key for the same number is another invoice: 409 « existe déjà », as without a key.
    const clash = await postInvoiceWithKey(ctx, ctx.ids.order, body, 'facture-reprise-2')
    assert.is(clash.statusCode, 409, clash.body)
    assert.match(clash.json().message, 'La facture FA-2026-REPRISE existe déjà')
    assert.equal(await traces(ctx), afterFirst)
  },
)

invoicing('retries sent at once with the same key: one invoice, every answer is it', async (ctx) => {
  const before = await traces(ctx)
  const body = invoiceBody(ctx, 'FA-2026-RAFALE')
  const answers = await Promise.all(Array.from({ length: 6 }, () => postInvoiceWithKey(ctx, ctx.ids.order, body, 'facture-rafale')))
  assert.equal(
    answers.map((a) => a.statusCode),
    [200, 200, 200, 200, 200, 200],
    answers.map((a) => a.body).join('\n'),
  )
  assert.is(new Set(answers.map((a) => a.json().id)).size, 1)
  assert.is(answers.filter((a) => a.headers['idempotent-replayed'] === 'true').length, 5)
  const after = await traces(ctx)
  assert.equal(
    [after.invoices, after.notifications, after.files.length],
    [before.invoices + 1, before.notifications + 1, before.files.length + 1],
  )
})

invoicing.run()
