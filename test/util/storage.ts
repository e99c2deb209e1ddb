// The store a test writes to: a temp directory, or, when STORAGE_URL names an S3 server (bash scripts/with-s3.sh …), a
// prefix of its own in that bucket, emptied when the test ends. Both listed the same way, temp writes included.
import { randomBytes } from 'node:crypto'
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { parseStorageUrl, type S3Location } from '../../server/config.ts'
import { fsStorage, type Storage } from '../../server/services/storage.ts'
import { s3Storage, type S3StorageOptions } from '../../server/services/storage-s3.ts'

export interface TestStore {
  storage: Storage
  kind: 'directory' | 's3'
  /** STORAGE_URL of this store (with its prefix); undefined for the directory. */
  storageUrl: string | undefined
  /** Every stored key, sorted; writes under way or left by a failure as `.tmp/…` (temp files, multipart uploads). */
  keys(area?: string): Promise<string[]>
  /** Writes under way or abandoned (temp files, multipart uploads). */
  pending(): Promise<number>
  /** An object put there by someone else, outside any area (`LISEZMOI.txt`). */
  plantForeign(name: string): Promise<void>
  /** A write abandoned now (a temp file, a multipart upload with one part). */
  plantTemp(key: string): Promise<void>
  /** Removes everything (the directory; every object and upload under the prefix). */
  close(): Promise<void>
  /** Lets go of the connections, leaving what is stored. */
  disconnect(): void
}

/**
 * The S3 server of this file, if any: STORAGE_URL as with-s3.sh exports it, given by the test runner only to the files
 * that say « tests: on S3 too » (scripts/uvu-summary.mjs). Read at each call: a test process runs several files.
 */
export const testS3Url = (): string | undefined => process.env.STORAGE_URL?.trim() || undefined

/** STORAGE_URL with a fresh prefix under the bucket's own: a test's objects apart from every other's. */
export function withTestPrefix(url: string, tag: string): string {
  const parsed = new URL(url)
  parsed.pathname = `${parsed.pathname.replace(/\/$/, '')}/tests/${tag}-${randomBytes(6).toString('hex')}`
  return parsed.toString()
}

export async function directoryStore(dir: string): Promise<TestStore> {
  const storage = fsStorage(dir)
  const files = async () => {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
  }
  return {
    storage,
    kind: 'directory',
    storageUrl: undefined,
    async keys(area) {
      return (await files()).filter((key) => !area || key.startsWith(`${area}/`)).sort()
    },
    async pending() {
      return (await files()).filter((key) => key.startsWith('.tmp/')).length
    },
    async plantForeign(name) {
      const { writeFile } = await import('node:fs/promises')
      await writeFile(join(dir, name), 'x')
    },
    async plantTemp() {
      const { mkdir, writeFile } = await import('node:fs/promises')
      await mkdir(join(dir, '.tmp'), { recursive: true })
      await writeFile(join(dir, '.tmp', randomBytes(8).toString('hex')), 'x')
    },
    async close() {
      await rm(dir, { recursive: true, force: true })
    },
    disconnect() {},
  }
}

export async function s3Store(url: string, options: S3StorageOptions & { checksums?: S3Location['checksums'] } = {}): Promise<TestStore> {
  const location = { ...parseStorageUrl(url), ...(options.checksums ? { checksums: options.checksums } : {}) }
  const storage = s3Storage(location, options)
  const { bucket, prefix } = location
  const sdk = await import('@aws-sdk/client-s3')
  const client = await storage.client()
  const objects = async () => {
    const keys: string[] = []
    let ContinuationToken: string | undefined
    do {
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }))
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key)
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (ContinuationToken)
    return keys
  }
  const uploads = async () => {
    const page = await client.send(new sdk.ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }))
    return (page.Uploads ?? []).map((upload) => ({ Key: upload.Key ?? '', UploadId: upload.UploadId ?? '' }))
  }
  return {
    storage,
    kind: 's3',
    storageUrl: url,
    async keys(area) {
      const stored = (await objects()).map((key) => key.slice(prefix.length))
      const temp = (await uploads()).map((upload) => `.tmp/${upload.Key.slice(prefix.length)}`)
      return [...stored, ...temp].filter((key) => !area || key.startsWith(`${area}/`)).sort()
    },
    async pending() {
      return (await uploads()).length
    },
    async plantForeign(name) {
      await client.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: prefix + name, Body: 'x' }))
    },
    async plantTemp(key) {
      const { UploadId } = await client.send(new sdk.CreateMultipartUploadCommand({ Bucket: bucket, Key: prefix + key }))
      await client.send(new sdk.UploadPartCommand({ Bucket: bucket, Key: prefix + key, UploadId, PartNumber: 1, Body: 'x' }))
    },
    async close() {
      for (const upload of await uploads())
        await client.send(new sdk.AbortMultipartUploadCommand({ Bucket: bucket, ...upload })).catch(() => undefined)
      const keys = await objects()
      for (let i = 0; i < keys.length; i += 500) {
        const Objects = keys.slice(i, i + 500).map((Key) => ({ Key }))
        await client.send(new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects, Quiet: true } }))
      }
      client.destroy()
    },
    disconnect() {
      client.destroy()
    },
  }
}
