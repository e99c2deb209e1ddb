// npm run operator -- add: the first administrator, made from the command line, with their single-use enrolment link.
// tests: the embedded database only (the command on a DATA_DIR of its own; left out of the PostgreSQL run)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect } from '../../../server/db/connect.ts'
import { sha256 } from '../../../server/lib/crypto.ts'
import { main } from '../../../scripts/operator.ts'

interface Ctx {
  dir: string
  env: NodeJS.ProcessEnv
}
const recorder = () => {
  const lines = { out: [] as string[], err: [] as string[] }
  const out = { log: (line: string) => lines.out.push(line), error: (line: string) => lines.err.push(line) } as unknown as Console
  return { lines, out }
}

const test = suite<Ctx>('npm run operator -- add')
test.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), 'portail-operateur-'))
  // Always the embedded database of its own directory: never the DATABASE_URL of a PostgreSQL test run.
  ctx.env = { DATA_DIR: join(ctx.dir, 'data'), STORAGE_DIR: join(ctx.dir, 'storage'), PUBLIC_URL: 'https://portail.example.com' }
})
test.after((ctx) => rm(ctx.dir, { recursive: true, force: true }))

test('wrong usage: a French error, exit code 2, nothing made', async (ctx) => {
  for (const [argv, message] of [
    [[], 'Commande manquante.'],
    [['supprimer'], 'Commande inconnue : « supprimer ».'],
    [['add', '--role', 'admin'], 'L’adresse e-mail manque'],
    [['add', '--email', 'pas-une-adresse', '--role', 'admin'], '« pas-une-adresse » n’est pas une adresse e-mail valide.'],
    [['add', '--email', 'ines@example.com'], 'Le rôle manque'],
    [['add', '--email', 'ines@example.com', '--role', 'patron'], 'Rôle inconnu : « patron »'],
    [['add', '--email', 'ines@example.com', '--role', 'admin', '--force'], 'Option non reconnue'],
  ] as const) {
    const { lines, out } = recorder()
    assert.is(await main([...argv], ctx.env, out), 2, argv.join(' '))
    assert.ok(lines.err.join('\n').includes(message), `${argv.join(' ')}: ${lines.err.join('\n')}`)
  }
})

test('makes the operator and prints the link; the same address again is refused in French', async (ctx) => {
  const { lines, out } = recorder()
  assert.is(
    await main(['add', '--email', 'Ines@Example.com', '--role', 'admin', '--role', 'courrier', '--name', 'Inès Garnier'], ctx.env, out),
    0,
  )
  const text = lines.out.join('\n')
  assert.match(text, 'Opérateur Ines@Example.com créé (Administrateur, Courrier).')
  const token = text.match(/^https:\/\/portail\.example\.com\/operateur\/inscription\/([\w-]{43})$/m)?.[1]
  assert.ok(token, text)
  const again = recorder()
  assert.is(await main(['add', '--email', 'ines@example.com', '--role', 'admin'], ctx.env, again.out), 1)
  assert.is(again.lines.err.join('\n'), 'Un opérateur a déjà l’adresse ines@example.com.')
  const handle = await connect({ dataDir: ctx.env.DATA_DIR! })
  try {
    const operators = await handle.db.selectFrom('operators').select(['email', 'name', 'roles', 'password_hash']).execute()
    assert.equal(operators, [{ email: 'Ines@Example.com', name: 'Inès Garnier', roles: ['admin', 'courrier'], password_hash: null }])
    const link = await handle.db.selectFrom('operator_enrolments').select(['token_hash', 'used_at']).executeTakeFirstOrThrow()
    assert.equal(link, { token_hash: sha256(token!), used_at: null })
    const journal = await handle.db.selectFrom('journal').select(['action', 'operator_id']).execute()
    assert.equal(journal, [{ action: 'operator.invited', operator_id: null }])
  } finally {
    await handle.close()
  }
})

test.run()
