// The store the configuration names: the directory STORAGE_DIR (by default) or, with STORAGE_URL, an S3-compatible
// bucket. Every part of the server (the API, npm run ingest, retention, backup, storage:check) opens it here.
import type { Kysely } from 'kysely'
import type { Config } from '../config.ts'
import type { Database } from '../db/schema.ts'
import { checkedStorage, type CheckedStorageOptions } from './checked-storage.ts'
import { fsStorage, type Storage } from './storage.ts'

export type StorageConfig = Pick<Config, 'storageDir' | 'storageUrl'>

/** The objects as they are, with no record of them (backups, storage:check, the tests of the stores themselves). */
export function openObjectStore(config: StorageConfig): Storage {
  if (config.storageUrl) throw new Error('STORAGE_URL : le stockage S3 n’est pas encore pris en charge.')
  return fsStorage(config.storageDir)
}

/** The store the application writes and reads through: every file's size and SHA-256 recorded, every read checked. */
export function openStorage(config: StorageConfig, db: Kysely<Database>, options: CheckedStorageOptions = {}): Storage {
  return checkedStorage(openObjectStore(config), db, options)
}
