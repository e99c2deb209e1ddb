// What the benchmarks that run the real server on PostgreSQL share: running themselves again under a throwaway
// cluster when no DATABASE_URL is given, a free port, a process's resident memory, and the built server started and
// stopped.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createWriteStream, existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')

/** Without DATABASE_URL, runs `script` again under scripts/with-postgres.sh and exits with its status. */
export function onPostgres(script: string, tag: string): void {
  if (process.env.DATABASE_URL) return
  if (!existsSync('/usr/lib/postgresql')) {
    console.error(`[${tag}] ni DATABASE_URL ni PostgreSQL (paquet Debian « postgresql ») : impossible de mesurer.`)
    process.exit(1)
  }
  const child = spawnSync('bash', [join(root, 'scripts/with-postgres.sh'), process.execPath, '--import', 'tsx', join(root, script)], {
    cwd: root,
    stdio: 'inherit',
  })
  process.exit(child.status ?? 1)
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

/** A process's resident memory (VmRSS), in MB; 0 once it is gone. */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)
}

/**
 * The built server (`npm run build`, then `node scripts/start.mjs`) in production mode on the demo data, its data and
 * storage in `dir`, its log in `dir`/server.log; resolves once /health answers (120 s at most). `env` adds to its settings.
 */
export async function startServer(
  dir: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; base: string; log: string }> {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' })
  if (build.status !== 0) throw new Error(`npm run build a échoué :\n${build.stdout}${build.stderr}`)
  const port = await freePort()
  const log = join(dir, 'server.log')
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      SEED_DEMO: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
      STORAGE_DIR: join(dir, 'storage'),
      DATA_DIR: join(dir, 'data'),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const out = createWriteStream(log)
  child.stdout!.pipe(out)
  child.stderr!.pipe(out)
  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`le serveur s’est arrêté au démarrage (code ${child.exitCode}) :\n${await readFile(log, 'utf8')}`)
    if ((await fetch(`${base}/health`).catch(() => null))?.ok) return { child, base, log }
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill('SIGKILL')
  throw new Error('le serveur ne répond pas sur /health après 120 s')
}

/** Stops the server a benchmark started, if it still runs: SIGTERM, then SIGKILL after 15 s. */
export async function stopServer(server: ChildProcess | undefined): Promise<void> {
  if (!server || server.exitCode !== null) return
  const exited = new Promise((resolve) => server.once('exit', resolve))
  server.kill('SIGTERM')
  const timer = setTimeout(() => server.kill('SIGKILL'), 15_000)
  await exited
  clearTimeout(timer)
}
