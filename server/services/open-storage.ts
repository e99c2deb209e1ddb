// The store the configuration names: the directory STORAGE_DIR (by default) or, with STORAGE_URL, an S3-compatible
// bucket. Every part of the server (the API, npm run ingest, retention, backup, storage:check) opens it here.
import type { Kysely } from 'kysely'
import { type Config, parseStorageUrl } from '../config.ts'
import type { Database } from '../db/schema.ts'
import { checkedStorage, type CheckedStorageOptions } from './checked-storage.ts'
import { fsStorage, type Storage } from './storage.ts'
import { s3Storage } from './storage-s3.ts'

export type StorageConfig = Pick<Config, 'storageDir' | 'storageUrl'>

/** The objects as they are, with no record of them (backups, storage:check, the tests of the stores themselves). */
export function openObjectStore(config: StorageConfig): Storage {
  // storage-s3.ts loads the AWS SDK only on its first call.
  if (config.storageUrl) return s3Storage(parseStorageUrl(config.storageUrl))
  return fsStorage(config.storageDir)
}

/**
 * With STORAGE_URL, at start: the bucket answers to the configured keys, or the server stops with a French message
 * (no bucket, keys refused, wrong region, store unreachable) rather than failing at the first upload.
 */
export async function checkObjectStore(config: StorageConfig): Promise<void> {
  if (config.storageUrl) await s3Storage(parseStorageUrl(config.storageUrl)).check()
}

/** The store the application writes and reads through: every file's size and SHA-256 recorded, every read checked. */
export function openStorage(config: StorageConfig, db: Kysely<Database>, options: CheckedStorageOptions = {}): Storage {
  return checkedStorage(openObjectStore(config), db, options)
}
