// The Storage interface on an S3-compatible bucket (AWS S3, Scaleway, OVHcloud, MinIO, Ceph's radosgw), with the AWS
// SDK v3: docs/STORAGE.md. The SDK (37 packages) is imported on the first call, so that a server on the
// directory store never loads it.
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { S3Client } from '@aws-sdk/client-s3'
import type { S3Location } from '../config.ts'
import { checkKey, type Storage } from './storage.ts'

/** Upload's part size (S3's least but for the last part): what one write holds in memory at most, per part in flight. */
const PART_BYTES = 5 * 1024 * 1024

type Sdk = typeof import('@aws-sdk/client-s3')

function notFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } }
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404
}

export interface S3StorageOptions {
  /** Keys per page of the listings (S3's default: 1000); the tests page with a few. */
  pageSize?: number
}

export interface S3Store extends Storage {
  /** Its client, for what the interface has no word for (the tests, a backup's listing). */
  client(): Promise<S3Client>
  /** A HEAD of the bucket: resolves when it answers to these keys; else a French error naming what failed. */
  check(): Promise<void>
}

export function s3Storage(location: S3Location, options: S3StorageOptions = {}): S3Store {
  const { bucket, prefix } = location
  const { pageSize } = options
  let loading: Promise<{ sdk: Sdk; client: S3Client }> | undefined
  const connect = () => {
    loading ??= import('@aws-sdk/client-s3').then((sdk) => {
      const checksums = location.checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED'
      const client = new sdk.S3Client({
        ...(location.region ? { region: location.region } : {}),
        ...(location.endpoint ? { endpoint: location.endpoint } : {}),
        forcePathStyle: location.forcePathStyle,
        requestChecksumCalculation: checksums,
        responseChecksumValidation: checksums,
      })
      return { sdk, client }
    })
    // A failed import is tried again on the next call rather than remembered.
    loading.catch(() => {
      loading = undefined
    })
    return loading
  }
  const objectKey = (key: string) => prefix + checkKey(key)

  return {
    async client() {
      return (await connect()).client
    },
    async check() {
      const { sdk, client } = await connect()
      try {
        await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }))
      } catch (error) {
        throw new Error(`STORAGE_URL : ${whyUnreachable(error, location)}`, { cause: error })
      }
    },
    async put(key, bytes) {
      const Key = objectKey(key)
      const { sdk, client } = await connect()
      // One PUT: S3 shows the object whole or not at all, never half written.
      await client.send(new sdk.PutObjectCommand({ Bucket: bucket, Key, Body: bytes, ContentLength: bytes.byteLength }))
    },
    async get(key) {
      const Key = objectKey(key)
      const { sdk, client } = await connect()
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key }))
        if (!object.Body) return Buffer.alloc(0)
        return Buffer.from(await object.Body.transformToByteArray())
      } catch (error) {
        if (notFound(error)) return null
        throw error
      }
    },
    async delete(key) {
      const Key = objectKey(key)
      const { sdk, client } = await connect()
      // S3's DELETE of a missing key succeeds, as rm --force.
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key }))
    },
    async read(key) {
      const Key = objectKey(key)
      const { sdk, client } = await connect()
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key }))
        // On Node the body is the HTTP response itself: read as it arrives, never buffered here.
        const stream = (object.Body as Readable | undefined) ?? Readable.from([])
        return { stream, bytes: object.ContentLength ?? 0 }
      } catch (error) {
        if (notFound(error)) return null
        throw error
      }
    },
    async putStream(key, stream, signal) {
      const Key = objectKey(key)
      const [{ client }, { Upload }] = await Promise.all([connect(), import('@aws-sdk/lib-storage')])
      let bytes = 0
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length
          callback(null, chunk)
        },
      })
      // The source's error, or the abort, destroys `counted`: Upload stops reading, aborts its multipart upload (no part
      // left behind) and only then rejects. Not upload.abort(): that rejects at once while the parts are still there.
      const piped = pipeline(stream, counted, signal ? { signal } : {})
      piped.catch(() => undefined)
      // One part in flight: at most PART_BYTES of the file in memory.
      const upload = new Upload({ client, params: { Bucket: bucket, Key, Body: counted }, partSize: PART_BYTES, queueSize: 1 })
      try {
        await upload.done()
      } catch (error) {
        counted.destroy()
        await piped.catch(() => undefined)
        throw signal?.aborted ? (signal.reason ?? error) : error
      }
      await piped
      return bytes
    },
    async listOlderThan(before) {
      const { sdk, client } = await connect()
      const keys: string[] = []
      let ContinuationToken: string | undefined
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken, MaxKeys: pageSize }),
        )
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(prefix.length)
          // Only what put() could have written: never an object someone else put in the bucket.
          if (!key || !object.LastModified || !validKey(key)) continue
          if (object.LastModified < before) keys.push(key)
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
      return keys
    },
    async removeTempOlderThan(before) {
      // A putStream that never finished (a crash mid-upload) leaves a multipart upload whose parts are stored and billed:
      // the directory store's temp files.
      const { sdk, client } = await connect()
      let removed = 0
      let KeyMarker: string | undefined
      let UploadIdMarker: string | undefined
      do {
        const page = await client.send(
          new sdk.ListMultipartUploadsCommand({
            Bucket: bucket,
            Prefix: prefix || undefined,
            KeyMarker,
            UploadIdMarker,
            MaxUploads: pageSize,
          }),
        )
        for (const upload of page.Uploads ?? []) {
          if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= before) continue
          await client.send(new sdk.AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }))
          removed++
        }
        const more = page.IsTruncated && (page.NextKeyMarker || page.NextUploadIdMarker)
        KeyMarker = more ? page.NextKeyMarker : undefined
        UploadIdMarker = more ? page.NextUploadIdMarker : undefined
      } while (KeyMarker || UploadIdMarker)
      return removed
    },
  }
}

/** What a failed HEAD of the bucket means, in French, for the operator who configured it. */
function whyUnreachable(error: unknown, { bucket, endpoint, region }: S3Location): string {
  const e = error as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } }
  const where = endpoint ?? 'AWS S3'
  const status = e?.$metadata?.httpStatusCode
  if (e?.name === 'CredentialsProviderError')
    return 'aucune clé d’accès trouvée : donnez AWS_ACCESS_KEY_ID et AWS_SECRET_ACCESS_KEY (ou AWS_PROFILE, un rôle).'
  if (/region is missing/i.test(e?.message ?? '')) return 'région inconnue : ajoutez region=… à STORAGE_URL (ou AWS_REGION).'
  if (status === 404 || e?.name === 'NotFound' || e?.name === 'NoSuchBucket')
    return `le bucket « ${bucket} » n’existe pas sur ${where} : créez-le (le serveur n’en crée pas).`
  if (status === 403) return `accès refusé au bucket « ${bucket} » sur ${where} : vérifiez les clés et leurs droits.`
  if (status === 301 || status === 400)
    return `le bucket « ${bucket} » ne répond pas dans la région ${region ?? '(celle du SDK)'} : vérifiez region=….`
  return `${where} ne répond pas pour le bucket « ${bucket} » (${e?.code ?? e?.name ?? 'erreur'} : ${e?.message ?? String(error)}).`
}

function validKey(key: string): boolean {
  try {
    checkKey(key)
    return true
  } catch {
    return false
  }
}
