// What the benchmarks that run the real server on PostgreSQL share: running themselves again under a throwaway
// cluster when no DATABASE_URL is given, a free port, and a process's resident memory.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
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
