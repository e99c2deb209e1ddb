// Files (scans, invoices, Kbis, identity documents) behind one small interface: a directory here, an S3-compatible bucket
// in storage-s3.ts.
import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

export interface Storage {
  put(key: string, bytes: Uint8Array): Promise<void>
  /** null when there is no such file. */
  get(key: string): Promise<Buffer | null>
  delete(key: string): Promise<void>
  /** The file as a stream, never whole in memory (a ZIP of years of mail); null when there is no such file. */
  read(key: string): Promise<{ stream: Readable; bytes: number } | null>
  /** Writes a stream as it comes (aside, then renamed, as put); how many bytes. */
  putStream(key: string, stream: Readable, signal?: AbortSignal): Promise<number>
  /** Keys of the stored files last written before `before` (what services/storage-sweep.ts may remove). */
  listOlderThan(before: Date): Promise<string[]>
  /** Removes the temp files of writes that never finished (a crash) older than `before`; how many. */
  removeTempOlderThan(before: Date): Promise<number>
}

const KEY = /^[a-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/

/** The key itself when it is one put() may write (an area, then segments; no `..`); an error otherwise. The same on every store. */
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`clé de fichier invalide : ${key}`)
  return key
}

export function newFileKey(area: string, extension: string): string {
  return `${area}/${new Date().toISOString().slice(0, 7)}/${randomUUID()}.${extension}`
}

export function fsStorage(root: string): Storage {
  const base = resolve(root)
  const pathOf = (key: string) => {
    const path = resolve(base, checkKey(key))
    if (!path.startsWith(base + sep)) throw new Error(`clé de fichier invalide : ${key}`)
    return path
  }
  return {
    async put(key, bytes) {
      const path = pathOf(key)
      const tmpDir = join(base, '.tmp')
      await mkdir(tmpDir, { recursive: true })
      await mkdir(dirname(path), { recursive: true })
      // Written aside then renamed: a reader never sees half a file, a crash leaves only a stray temp file.
      const tmp = join(tmpDir, randomUUID())
      try {
        await writeFile(tmp, bytes, { flag: 'wx' })
        await rename(tmp, path)
      } catch (error) {
        await rm(tmp, { force: true })
        throw error
      }
    },
    async get(key) {
      try {
        return await readFile(pathOf(key))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
    async read(key) {
      // Opened first, so that a missing file is null here rather than an error on the stream later.
      const handle = await open(pathOf(key), 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null
        throw error
      })
      if (!handle) return null
      const { size } = await handle.stat()
      return { stream: handle.createReadStream(), bytes: size }
    },
    async putStream(key, stream, signal) {
      const path = pathOf(key)
      const tmpDir = join(base, '.tmp')
      await mkdir(tmpDir, { recursive: true })
      await mkdir(dirname(path), { recursive: true })
      const tmp = join(tmpDir, randomUUID())
      try {
        const out = createWriteStream(tmp, { flags: 'wx' })
        await pipeline(stream, out, signal ? { signal } : {})
        await rename(tmp, path)
        return out.bytesWritten
      } catch (error) {
        await rm(tmp, { force: true })
        throw error
      }
    },
    async listOlderThan(before) {
      const entries = await readdir(base, { withFileTypes: true, recursive: true }).catch(() => [])
      const keys: string[] = []
      for (const entry of entries) {
        if (!entry.isFile()) continue
        const key = relative(base, join(entry.parentPath, entry.name)).split(sep).join('/')
        // Only what put() could have written: never the temp directory, never a file someone else put there.
        if (!KEY.test(key) || key.includes('..')) continue
        const info = await stat(join(base, key)).catch(() => null)
        if (info && info.mtime < before) keys.push(key)
      }
      return keys
    },
    async removeTempOlderThan(before) {
      const tmpDir = join(base, '.tmp')
      let removed = 0
      for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
        const info = await stat(join(tmpDir, name)).catch(() => null)
        if (info?.isFile() && info.mtime < before) {
          await rm(join(tmpDir, name), { force: true })
          removed++
        }
      }
      return removed
    },
  }
}

/**
 * Stores files and the records that point at them as one step: files first, then `record`
 * (a transaction); if the record fails the files are removed, so neither exists without the other.
 */
export async function storeWithRecord<T>(
  storage: Storage,
  files: { key: string; bytes: Uint8Array }[],
  record: () => Promise<T>,
): Promise<T> {
  const written: string[] = []
  try {
    for (const file of files) {
      await storage.put(file.key, file.bytes)
      written.push(file.key)
    }
    return await record()
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)))
    throw error
  }
}
