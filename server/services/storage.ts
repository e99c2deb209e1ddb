// Files (scans, invoices, Kbis, identity documents) behind one small interface, so an S3-compatible store can replace the disk.
import { randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'

export interface Storage {
  put(key: string, bytes: Uint8Array): Promise<void>
  /** null when there is no such file. */
  get(key: string): Promise<Buffer | null>
  delete(key: string): Promise<void>
}

const KEY = /^[a-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/

export function newFileKey(area: string, extension: string): string {
  return `${area}/${new Date().toISOString().slice(0, 7)}/${randomUUID()}.${extension}`
}

export function fsStorage(root: string): Storage {
  const base = resolve(root)
  const pathOf = (key: string) => {
    const path = resolve(base, key)
    if (!KEY.test(key) || key.includes('..') || !path.startsWith(base + sep)) throw new Error(`clé de fichier invalide : ${key}`)
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
  }
}

/**
 * Stores files and the records that point at them as one step: files first, then `record`
 * (a transaction); if the record fails the files are removed, so neither exists without the other.
 */
export async function storeWithRecord<T>(storage: Storage, files: { key: string; bytes: Uint8Array }[], record: () => Promise<T>): Promise<T> {
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
