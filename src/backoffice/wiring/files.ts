// A file of the operator's (a scan, a package's photo) as the mail room's routes take it: a data URL.
export function readAsDataUrl(file: Blob, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(new Error('Le fichier n’a pas pu être lu sur cet appareil. Choisissez-le à nouveau.'))
    reader.onabort = () => reject(new DOMException('The read was aborted.', 'AbortError'))
    signal?.addEventListener('abort', () => reader.abort(), { once: true })
    reader.readAsDataURL(file)
  })
}
