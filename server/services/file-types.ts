// Uploaded files are judged by their bytes, never by their name or declared type.

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024

export type FileType = 'pdf' | 'jpeg' | 'png'
export const contentTypes: Record<FileType, string> = { pdf: 'application/pdf', jpeg: 'image/jpeg', png: 'image/png' }

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b)
const tail = (bytes: Uint8Array, size: number) => Buffer.from(bytes.subarray(Math.max(0, bytes.length - size)))
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const PNG_IEND = Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82])

/** The type of a complete file (a truncated one has lost its end marker), or null. */
export function sniffFileType(bytes: Uint8Array): FileType | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d]) && tail(bytes, 1024).includes('%%EOF')) return 'pdf'
  if (startsWith(bytes, [0xff, 0xd8, 0xff]) && bytes.length > 4 && bytes[bytes.length - 2] === 0xff && bytes[bytes.length - 1] === 0xd9) return 'jpeg'
  if (startsWith(bytes, PNG_SIGNATURE) && tail(bytes, 12).subarray(4).equals(PNG_IEND)) return 'png'
  return null
}

/** The bytes of a base64 data URL, or null when it is not one. */
export function decodeDataUrl(value: string): { mediaType: string; bytes: Buffer } | null {
  const match = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)?((?:;[a-z0-9-]+=[^;,]*)*);base64,/i.exec(value)
  if (!match) return null
  const payload = value.slice(match[0].length)
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(payload)) return null
  return { mediaType: (match[1] ?? 'text/plain').toLowerCase(), bytes: Buffer.from(payload, 'base64') }
}
