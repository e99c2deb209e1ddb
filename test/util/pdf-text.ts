// The text a PDF made with pdf-lib shows: its content streams inflated, the strings of its Tj operators decoded
// (pdf-lib writes them as hex, in WinAnsi, which latin1 reads the same for French text).
import { inflateSync } from 'node:zlib'

export function pdfText(bytes: Uint8Array): string {
  const data = Buffer.from(bytes)
  const texts: string[] = []
  for (let at = data.indexOf('stream'); at !== -1; at = data.indexOf('stream', at)) {
    const start = at + (data[at + 6] === 0x0d ? 8 : 7)
    const end = data.indexOf('endstream', start)
    if (end === -1) break
    const raw = data.subarray(start, end)
    let content: string
    try {
      content = inflateSync(raw).toString('latin1')
    } catch {
      content = raw.toString('latin1')
    }
    for (const match of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) texts.push(Buffer.from(match[1]!, 'hex').toString('latin1'))
    for (const match of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) texts.push(match[1]!)
    at = end + 'endstream'.length
  }
  return texts.join('\n')
}
