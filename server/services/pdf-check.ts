// The PDF half of checkFile (file-types.ts), in a module of its own so that pdf-lib loads with the first PDF
// to check: the whole structure parsed by pdf-lib, and no JavaScript or Launch action anywhere.
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream, type PDFObject } from 'pdf-lib'

/** Its page count, or why it is refused. */
export async function readPdf(bytes: Uint8Array): Promise<{ pages: number } | { problem: 'unreadable' | 'active' }> {
  let pdf: PDFDocument
  let pages: number
  try {
    pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false })
    pages = pdf.getPageCount()
  } catch {
    return { problem: 'unreadable' }
  }
  if (pages < 1) return { problem: 'unreadable' }
  return runsCode(pdf) ? { problem: 'active' } : { pages }
}

const JS_KEYS = [PDFName.of('JS'), PDFName.of('JavaScript')]
const CODE_ACTIONS = [PDFName.of('JavaScript'), PDFName.of('Launch')]
const ACTION_TYPE = PDFName.of('S')

/** A JavaScript or Launch action anywhere, or a JavaScript name tree: objects of object streams included. */
function runsCode(pdf: PDFDocument): boolean {
  const pending: PDFObject[] = pdf.context.enumerateIndirectObjects().map(([, object]) => object)
  while (pending.length) {
    const object = pending.pop()!
    const dict = object instanceof PDFStream ? object.dict : object
    if (dict instanceof PDFDict) {
      if (JS_KEYS.some((key) => dict.has(key))) return true
      const action = dict.get(ACTION_TYPE)
      if (action && CODE_ACTIONS.includes(action as PDFName)) return true
      pending.push(...dict.values())
    } else if (dict instanceof PDFArray) {
      pending.push(...dict.asArray())
    }
  }
  return false
}
