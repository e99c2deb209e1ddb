// The text a PDF made with pdf-lib shows: its content streams inflated, the strings of its Tj operators decoded. With
// a standard font pdf-lib writes them as hex in WinAnsi, which latin1 reads the same for French text; with an embedded
// font (the provider's documents), as glyph ids that the font's ToUnicode map turns back into text.
import { inflateSync } from 'node:zlib'

interface PdfObject {
  dict: string
  stream?: Buffer
}

/** Every `N 0 obj … endobj` of a file written without object streams, by number. */
function objects(data: Buffer): Map<number, PdfObject> {
  const text = data.toString('latin1')
  const found = new Map<number, PdfObject>()
  const headers = [...text.matchAll(/(?:^|[\r\n])(\d+) 0 obj\b/g)]
  headers.forEach((header, i) => {
    const start = header.index! + header[0].length
    const end = i + 1 < headers.length ? headers[i + 1]!.index! : text.length
    const body = text.slice(start, end)
    const streamAt = body.search(/\bstream\r?\n/)
    if (streamAt === -1) {
      found.set(Number(header[1]), { dict: body })
      return
    }
    const from = start + streamAt + (body[streamAt + 6] === '\r' ? 8 : 7)
    const to = text.lastIndexOf('endstream', end)
    found.set(Number(header[1]), { dict: body.slice(0, streamAt), stream: data.subarray(from, to) })
  })
  return found
}

const inflate = (raw: Buffer) => {
  try {
    return inflateSync(raw).toString('latin1')
  } catch {
    return raw.toString('latin1')
  }
}

/** A ToUnicode CMap's bfchar entries: glyph code (hex) to text. */
function toUnicode(cmap: string): Map<string, string> {
  const map = new Map<string, string>()
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, unicode] of block[1]!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
      map.set(code!.toUpperCase(), Buffer.from(unicode!, 'hex').swap16().toString('utf16le'))
    }
  }
  return map
}

export function pdfText(bytes: Uint8Array): string {
  const data = Buffer.from(bytes)
  const all = objects(data)
  // Font resource name → the embedded font's ToUnicode map (pdf-lib's names carry a random suffix: unique in a file).
  const maps = new Map<string, Map<string, string>>()
  for (const { dict } of all.values()) {
    for (const fonts of dict.matchAll(/\/Font\s*<<([\s\S]*?)>>/g)) {
      for (const [, name, ref] of fonts[1]!.matchAll(/\/([^\s/<>[\]()]+)\s+(\d+) 0 R/g)) {
        const font = all.get(Number(ref))
        const cmapRef = font && /\/ToUnicode\s+(\d+) 0 R/.exec(font.dict)?.[1]
        const cmap = cmapRef ? all.get(Number(cmapRef))?.stream : undefined
        if (cmap) maps.set(name!, toUnicode(inflate(cmap)))
      }
    }
  }
  const texts: string[] = []
  for (const { stream } of all.values()) {
    if (!stream) continue
    const content = inflate(stream)
    let map: Map<string, string> | undefined
    for (const match of content.matchAll(/\/([^\s/<>[\]()]+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
      if (match[1] !== undefined) map = maps.get(match[1])
      else if (match[2] !== undefined) {
        const hex = match[2]
        const glyphs = map
        texts.push(
          glyphs
            ? (hex.toUpperCase().match(/.{4}/g) ?? []).map((code) => glyphs.get(code) ?? '\uFFFD').join('')
            : Buffer.from(hex, 'hex').toString('latin1'),
        )
      } else texts.push(match[3]!)
    }
  }
  return texts.join('\n')
}
