// A stored file whose bytes no longer match what was recorded when it was written (services/checked-storage.ts): the
// HTTP layer answers it with a French 500 (FILE_DAMAGED), never with the file.
export class DamagedFileError extends Error {
  constructor(
    readonly key: string,
    readonly detail: string,
  ) {
    super(`fichier endommagé : ${key} (${detail})`)
  }
}
