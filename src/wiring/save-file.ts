// A file handed to the browser to save (an invoice, a contract, « Mes données »'s ZIP): shared by the areas' wiring.

/** Hands a file to the browser to save, as a download link clicked once. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  // Long enough for the browser to have taken the file.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
