// The Storage contract, the same assertions on every store: the directory (always) and S3 when STORAGE_URL names a
// server (bash scripts/with-s3.sh node scripts/run-tests.mjs test/server stores --jobs 1), with each checksum setting.
// Without STORAGE_URL the S3 half says it did not run; with REQUIRE_S3=1 (CI) that is a failure.
// tests: on S3 too (under scripts/with-s3.sh its apps store on the S3 server: scripts/uvu-summary.mjs)
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { setTimeout as sleep } from 'node:timers/promises'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadConfig, parseStorageUrl } from '../../server/config.ts'
import { checkObjectStore, openObjectStore } from '../../server/services/open-storage.ts'
import { directoryStore, s3Store, type TestStore, testS3Url, withTestPrefix } from '../util/storage.ts'

const MB = 1024 * 1024
const root = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)

/** `parts` chunks of `size` bytes drawn from one seed, made as they are read: never the whole in memory here. */
function generated(parts: number, size: number, seed = 7) {
  const hash = createHash('sha256')
  async function* chunks() {
    for (let i = 0; i < parts; i++) {
      const chunk = Buffer.alloc(size, (seed + i) % 251)
      hash.update(chunk)
      yield chunk
    }
  }
  return { stream: Readable.from(chunks()), digest: () => hash.digest('hex') }
}

async function refused(what: string, call: () => Promise<unknown>) {
  try {
    await call()
  } catch (error) {
    assert.match((error as Error).message, 'clé de fichier invalide', what)
    return
  }
  assert.unreachable(`${what}: accepted`)
}

function contract(name: string, open: () => Promise<TestStore>) {
  const test = suite<{ s: TestStore }>(`Storage contract: ${name}`)
  test.before(async (ctx) => {
    ctx.s = await open()
  })
  test.after(async (ctx) => ctx.s?.close())

  test('put, get, overwrite, delete; delete of a missing key is no error', async ({ s }) => {
    const { storage } = s
    await storage.put('documents/2026-01/a.pdf', Buffer.from('%PDF-1'))
    assert.equal(await storage.get('documents/2026-01/a.pdf'), Buffer.from('%PDF-1'))
    await storage.put('documents/2026-01/a.pdf', Buffer.from('%PDF-2, plus long'))
    assert.equal(await storage.get('documents/2026-01/a.pdf'), Buffer.from('%PDF-2, plus long'))
    await storage.put('documents/2026-01/empty.bin', new Uint8Array(0))
    assert.equal(await storage.get('documents/2026-01/empty.bin'), Buffer.alloc(0))
    await storage.delete('documents/2026-01/a.pdf')
    await storage.delete('documents/2026-01/empty.bin')
    await storage.delete('documents/2026-01/never-written.pdf')
    assert.is(await storage.get('documents/2026-01/a.pdf'), null)
    assert.equal(await s.keys(), [], 'nothing left, no temp write')
  })

  test('a missing key: get and read are null', async ({ s }) => {
    assert.is(await s.storage.get('kbis/2026-01/absent.pdf'), null)
    assert.is(await s.storage.read('kbis/2026-01/absent.pdf'), null)
  })

  test('putStream writes a multi-MB stream (multipart on S3) and counts it; read streams it back in pieces', async ({ s }) => {
    const source = generated(12, MB)
    const bytes = await s.storage.putStream('exports/2026-01/big.zip', source.stream)
    assert.is(bytes, 12 * MB)
    const read = await s.storage.read('exports/2026-01/big.zip')
    assert.ok(read, 'stored')
    assert.is(read.bytes, 12 * MB)
    const hash = createHash('sha256')
    let [chunks, largest, total] = [0, 0, 0]
    for await (const chunk of read.stream as AsyncIterable<Buffer>) {
      hash.update(chunk)
      chunks++
      total += chunk.length
      largest = Math.max(largest, chunk.length)
    }
    assert.is(total, 12 * MB)
    assert.is(hash.digest('hex'), source.digest(), 'the same bytes')
    // Streamed: many pieces, none near the whole (a buffered body would come as one 12 MB chunk).
    assert.ok(chunks >= 12, `${chunks} pieces`)
    assert.ok(largest <= MB, `largest piece ${largest} bytes`)
    assert.equal(await s.keys('exports'), ['exports/2026-01/big.zip'])
    await s.storage.delete('exports/2026-01/big.zip')
  })

  test('putStream of a small stream (one PUT on S3)', async ({ s }) => {
    assert.is(await s.storage.putStream('exports/2026-01/small.zip', Readable.from([Buffer.from('PK'), Buffer.from('..')])), 4)
    assert.equal(await s.storage.get('exports/2026-01/small.zip'), Buffer.from('PK..'))
    await s.storage.delete('exports/2026-01/small.zip')
  })

  test('putStream aborted after a first part is stored: rejects, leaves no object and no pending upload', async ({ s }) => {
    let release: () => void = () => undefined
    const blocked = new Promise<void>((resolve) => {
      release = resolve
    })
    async function* slow() {
      yield Buffer.alloc(6 * MB, 1) // more than one 5 MB part: S3 starts a multipart upload and stores part 1
      await blocked
      yield Buffer.alloc(MB, 2)
    }
    const controller = new AbortController()
    const writing = s.storage.putStream('exports/2026-01/aborted.zip', Readable.from(slow()), controller.signal)
    writing.catch(() => undefined)
    // Until the write is under way: the temp file, or the multipart upload with its first part.
    for (let i = 0; i < 100 && (await s.pending()) === 0; i++) await sleep(50)
    assert.is(await s.pending(), 1, 'a write under way')
    controller.abort()
    release()
    try {
      await writing
      assert.unreachable('aborted write resolved')
    } catch (error) {
      assert.ok(error instanceof Error)
    }
    assert.is(await s.storage.read('exports/2026-01/aborted.zip'), null)
    assert.is(await s.pending(), 0, 'no temp file, no multipart upload')
    assert.equal(await s.keys(), [])
  })

  test('putStream whose source fails midway: rejects with its error, leaves nothing', async ({ s }) => {
    async function* failing() {
      yield Buffer.alloc(6 * MB, 3)
      throw new Error('lecture interrompue')
    }
    try {
      await s.storage.putStream('exports/2026-01/failed.zip', Readable.from(failing()))
      assert.unreachable('failed write resolved')
    } catch (error) {
      assert.match((error as Error).message, 'lecture interrompue')
    }
    assert.is(await s.storage.get('exports/2026-01/failed.zip'), null)
    assert.is(await s.pending(), 0)
    assert.equal(await s.keys(), [])
  })

  test('listOlderThan: the keys written before the date, never a temp write or a foreign object', async ({ s }) => {
    // S3 dates objects to the second: a second and more on each side of the cut.
    await s.storage.put('identity/2026-01/old-1.png', Buffer.from('1'))
    await s.storage.put('identity/2026-01/old-2.png', Buffer.from('2'))
    await s.storage.put('kbis/2026-01/old-3.pdf', Buffer.from('3'))
    await s.plantForeign('LISEZMOI.txt')
    await s.plantTemp('identity/2026-01/unfinished.png')
    await sleep(1100)
    const cut = new Date()
    await sleep(1100)
    await s.storage.put('identity/2026-01/new.png', Buffer.from('n'))
    assert.equal(
      (await s.storage.listOlderThan(cut)).sort(),
      ['identity/2026-01/old-1.png', 'identity/2026-01/old-2.png', 'kbis/2026-01/old-3.pdf'],
      'paged through (the S3 store lists 2 a page here)',
    )
    assert.equal(await s.storage.listOlderThan(new Date(cut.getTime() - 60_000)), [])
    assert.is((await s.storage.listOlderThan(new Date(Date.now() + 60_000))).length, 4)
    for (const key of ['identity/2026-01/old-1.png', 'identity/2026-01/old-2.png', 'kbis/2026-01/old-3.pdf', 'identity/2026-01/new.png'])
      await s.storage.delete(key)
  })

  test('removeTempOlderThan: abandoned writes older than the date go, recent ones stay; how many', async ({ s }) => {
    const before = await s.pending()
    await s.plantTemp('identity/2026-01/a.png')
    await s.plantTemp('identity/2026-01/b.png')
    await s.plantTemp('kbis/2026-01/c.pdf')
    assert.is(await s.pending(), before + 3)
    assert.is(await s.storage.removeTempOlderThan(new Date(Date.now() - 60 * 60_000)), 0, 'all recent')
    assert.is(await s.pending(), before + 3)
    assert.is(await s.storage.removeTempOlderThan(new Date(Date.now() + 60_000)), before + 3)
    assert.is(await s.pending(), 0)
  })

  test('invalid keys are refused by every method, before any request', async ({ s }) => {
    const before = await s.keys()
    for (const key of ['../evil.pdf', 'documents/../../evil.pdf', '/etc/passwd', 'documents', 'Documents/x.pdf', 'a/b c.pdf', '']) {
      await refused(`put ${key}`, () => s.storage.put(key, Buffer.from('x')))
      await refused(`get ${key}`, () => s.storage.get(key))
      await refused(`read ${key}`, () => s.storage.read(key))
      await refused(`delete ${key}`, () => s.storage.delete(key))
      await refused(`putStream ${key}`, () => s.storage.putStream(key, Readable.from([Buffer.from('x')])))
    }
    assert.equal(await s.keys(), before, 'nothing written')
  })

  test.run()
}

contract('directory', async () => directoryStore(await mkdtemp(join(tmpdir(), 'portail-stores-'))))

const s3Url = testS3Url()
if (s3Url) {
  for (const checksums of ['when_required', 'when_supported'] as const)
    contract(`S3 (${new URL(s3Url).host}, checksums=${checksums})`, () =>
      s3Store(withTestPrefix(s3Url, `stores-${checksums}`), { checksums, pageSize: 2 }),
    )
  const check = suite('S3: the check at start (checkObjectStore)')
  const failure = async (url: string, env: Record<string, string | undefined> = {}) => {
    const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]))
    Object.assign(process.env, env)
    try {
      await checkObjectStore({ storageDir: '/nonexistent', storageUrl: url })
      return 'no error'
    } catch (error) {
      return (error as Error).message
    } finally {
      for (const [key, value] of Object.entries(saved))
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
    }
  }
  check('the bucket answers: no error; each fault named in French', async () => {
    await checkObjectStore({ storageDir: '/nonexistent', storageUrl: s3Url })
    const other = new URL(s3Url)
    other.hostname = 'pas-de-tel-bucket'
    assert.match(await failure(other.toString()), 'STORAGE_URL : le bucket « pas-de-tel-bucket » n’existe pas sur http://')
    assert.match(await failure(s3Url, { AWS_SECRET_ACCESS_KEY: 'mauvaise-clé' }), 'accès refusé au bucket « portail-test »')
    const closed = new URL(s3Url)
    closed.searchParams.set('endpoint', 'http://127.0.0.1:1')
    assert.match(await failure(closed.toString(), { AWS_MAX_ATTEMPTS: '1' }), 'STORAGE_URL : http://127.0.0.1:1 ne répond pas')
  })
  check.run()
} else if (process.env.REQUIRE_S3 === '1') {
  const missing = suite('Storage contract: S3')
  missing('REQUIRE_S3=1: STORAGE_URL names an S3 server', () => {
    assert.unreachable('STORAGE_URL absent : lancez ce test par bash scripts/with-s3.sh … (le contrat S3 n’a pas été vérifié)')
  })
  missing.run()
} else {
  console.log(
    '\n  ⚠ Storage contract: S3 NOT RUN (no STORAGE_URL; bash scripts/with-s3.sh node scripts/run-tests.mjs test/server stores)\n',
  )
}

const url = suite('STORAGE_URL')

url('a full address: bucket, prefix, endpoint, region, path style, checksums', () => {
  assert.equal(
    parseStorageUrl(
      's3://mon-bucket/portail/prod?endpoint=https://s3.fr-par.scw.cloud&region=fr-par&forcePathStyle=true&checksums=when_supported',
    ),
    {
      bucket: 'mon-bucket',
      prefix: 'portail/prod/',
      endpoint: 'https://s3.fr-par.scw.cloud',
      region: 'fr-par',
      forcePathStyle: true,
      checksums: 'when_supported',
    },
  )
})

url('AWS (no endpoint): the SDK’s checksums; another store: only the required ones, unless asked', () => {
  assert.equal(parseStorageUrl('s3://factures'), {
    bucket: 'factures',
    prefix: '',
    endpoint: undefined,
    region: undefined,
    forcePathStyle: false,
    checksums: 'when_supported',
  })
  assert.is(parseStorageUrl('s3://factures?endpoint=http://127.0.0.1:9000').checksums, 'when_required')
})

url('a bad address is refused with a French message naming what is wrong', () => {
  const cases: [string, string][] = [
    ['pas une adresse', 'ce n’est pas une adresse'],
    ['https://bucket', 'seul le schéma s3://'],
    ['s3://AB', 'nom de bucket'],
    ['s3://clé:secret@bucket', 'clés d’accès'],
    ['s3://bucket:9000', 'le port va dans endpoint='],
    ['s3://bucket/a b', 'préfixe'],
    ['s3://bucket?endpont=http://x', 'paramètre inconnu : endpont'],
    ['s3://bucket?endpoint=ftp://x', 'endpoint « ftp://x »'],
    ['s3://bucket?endpoint=http://x/chemin', 'sans chemin'],
    ['s3://bucket?forcePathStyle=oui', 'forcePathStyle vaut true ou false'],
    ['s3://bucket?checksums=always', 'checksums vaut'],
    ['s3://bucket?region=Paris!', 'la région'],
  ]
  for (const [value, message] of cases) {
    try {
      loadConfig({ STORAGE_URL: value })
      assert.unreachable(value)
    } catch (error) {
      assert.match((error as Error).message, `STORAGE_URL vaut « ${value} »`)
      assert.match((error as Error).message, message, value)
    }
  }
})

url('openObjectStore: the directory without STORAGE_URL, S3 with it; the SDK loaded at the first call, not before', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'portail-open-'))
  assert.not.ok('client' in openObjectStore({ storageDir: dir, storageUrl: undefined }))
  const s3 = openObjectStore({ storageDir: dir, storageUrl: 's3://bucket?endpoint=http://127.0.0.1:1&region=x' })
  assert.ok('client' in s3)
  await refused('put on S3', () => s3.put('..', Buffer.from('x')))
  // In a process of its own (this one may have loaded the SDK already): the SDK's modules appear only after a call.
  const script = `
    import { createRequire } from 'node:module'
    const require = createRequire(import.meta.url)
    const { openObjectStore } = await import(${JSON.stringify(pathToFileURL(join(root, 'server/services/open-storage.ts')).href)})
    const loaded = () => Object.keys(require.cache).some((path) => path.includes('@aws-sdk'))
    const store = openObjectStore({ storageDir: '/nonexistent', storageUrl: 's3://bucket?endpoint=http://127.0.0.1:1&region=x' })
    const before = loaded()
    await store.get('documents/2026-01/a.pdf').catch(() => undefined)
    console.log(JSON.stringify({ before, after: loaded() }))`
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_MAX_ATTEMPTS: '1' },
  })
  assert.equal(JSON.parse(stdout.trim().split('\n').pop() ?? ''), { before: false, after: true })
})

url.run()
