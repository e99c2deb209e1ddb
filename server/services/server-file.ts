// Where a running server on the embedded database can be reached (part 6): PGlite admits one
// process, so `npm run ingest` hands its letter to the running server's operator API, found through
// this file that the server writes in DATA_DIR beside the database lock and removes when it stops.
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export interface ServerFile {
  pid: number
  /** The server's own address for a process on the same machine, e.g. http://127.0.0.1:8080 */
  url: string
}

export const serverFilePath = (dataDir: string) => join(dataDir, 'server.json')

export async function writeServerFile(dataDir: string, info: ServerFile): Promise<() => Promise<void>> {
  const path = serverFilePath(dataDir)
  const tmp = `${path}.${process.pid}.tmp`
  await writeFile(tmp, JSON.stringify(info))
  await rename(tmp, path)
  return async () => {
    // Only our own: a newer server may have replaced it.
    if ((await readServerFile(dataDir))?.pid === info.pid) await rm(path, { force: true })
  }
}

export async function readServerFile(dataDir: string): Promise<ServerFile | null> {
  try {
    const info = JSON.parse(await readFile(serverFilePath(dataDir), 'utf8')) as Partial<ServerFile>
    return typeof info.pid === 'number' && typeof info.url === 'string' ? { pid: info.pid, url: info.url } : null
  } catch {
    return null
  }
}

/**
 * What a command (ingest, backup, storage:check) needs to do its work through the running server that holds the
 * embedded database: that server, if the file names the process holding the lock (`busyPid`), and the key for its
 * operator API: an API key (OPERATOR_API_KEY, which names the machine in the journal), else the bootstrap
 * OPERATOR_TOKEN. Each command says in its own words what is missing.
 */
export async function serverHolding(
  dataDir: string,
  busyPid: number,
  env: NodeJS.ProcessEnv,
  operatorToken: string | undefined,
): Promise<{ server: ServerFile | null; credential: string | undefined }> {
  const server = await readServerFile(dataDir)
  return { server: server?.pid === busyPid ? server : null, credential: env.OPERATOR_API_KEY?.trim() || operatorToken }
}
