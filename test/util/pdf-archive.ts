// What a PDF must hold to be archived and read by a screen reader, checked from outside: qpdf's own check of the file
// (Debian's qpdf), then, read with pdf-lib, the catalog's tagging (MarkInfo, a structure tree with children, the
// language), the title shown, every font embedded, the XMP metadata and the output intent of PDF/A.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFObject } from 'pdf-lib'
import { inflateSync } from 'node:zlib'

/** qpdf --check on the bytes: its verdict, and what it said. */
export function qpdfCheck(bytes: Uint8Array): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'qpdf-'))
  try {
    const file = join(dir, 'document.pdf')
    writeFileSync(file, bytes)
    const run = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' })
    if (run.error) throw new Error(`qpdf introuvable (${run.error.message}) : installez-le, apt-get install qpdf (.ci/run le fait).`)
    const output = `${run.stdout}${run.stderr}`
    // 0: no error; 3: warnings only, which an archived file should not have either.
    return { ok: run.status === 0 && output.includes('No syntax or stream encoding errors found'), output }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const streamText = (stream: PDFRawStream) => {
  const raw = Buffer.from(stream.contents)
  return stream.dict.get(PDFName.of('Filter')) ? inflateSync(raw).toString('latin1') : raw.toString('latin1')
}

/** Every problem of tagging, fonts and archiving metadata found in the document; none for a document that holds up. */
export async function archiveProblems(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false })
  const { catalog, context } = pdf
  const problems: string[] = []
  const resolve = (value: PDFObject | undefined) => (value instanceof PDFRef ? context.lookup(value) : value)
  const dict = (value: PDFObject | undefined) => {
    const found = resolve(value)
    return found instanceof PDFDict ? found : undefined
  }
  const array = (value: PDFObject | undefined) => {
    const found = resolve(value)
    return found instanceof PDFArray ? found : undefined
  }
  const stream = (value: PDFObject | undefined) => {
    const found = resolve(value)
    return found instanceof PDFRawStream ? found : undefined
  }
  const number = (value: PDFObject | undefined) => {
    const found = resolve(value)
    return found instanceof PDFNumber ? found.asNumber() : undefined
  }

  const markInfo = dict(catalog.get(PDFName.of('MarkInfo')))
  if (String(markInfo?.get(PDFName.of('Marked'))) !== 'true') problems.push('no /MarkInfo << /Marked true >>')
  const tree = dict(catalog.get(PDFName.of('StructTreeRoot')))
  if (!tree) problems.push('no /StructTreeRoot')
  else {
    const root = dict(tree.get(PDFName.of('K')))
    const kids = root && array(root.get(PDFName.of('K')))
    if (!kids || kids.size() === 0) problems.push('a structure tree without children')
    if (!dict(tree.get(PDFName.of('ParentTree')))) problems.push('no /ParentTree')
  }
  const lang = catalog.get(PDFName.of('Lang'))
  if (!lang || !/fr-FR/.test(String(lang))) problems.push(`no /Lang (fr-FR): ${lang}`)
  const preferences = dict(catalog.get(PDFName.of('ViewerPreferences')))
  if (String(preferences?.get(PDFName.of('DisplayDocTitle'))) !== 'true') problems.push('the title is not displayed (DisplayDocTitle)')
  if (!pdf.getTitle()) problems.push('no /Title')

  const metadata = stream(catalog.get(PDFName.of('Metadata')))
  const xmp = metadata ? streamText(metadata) : ''
  if (!/<pdfaid:part>2<\/pdfaid:part>/.test(xmp) || !/<pdfaid:conformance>U<\/pdfaid:conformance>/.test(xmp))
    problems.push('no XMP metadata naming PDF/A-2u')
  const intents = array(catalog.get(PDFName.of('OutputIntents')))
  const intent = intents && dict(intents.get(0))
  const profile = intent && stream(intent.get(PDFName.of('DestOutputProfile')))
  if (!profile) problems.push('no output intent with an ICC profile')
  else {
    const icc = inflateSync(Buffer.from(profile.contents))
    if (icc.readUInt32BE(0) !== icc.length || icc.toString('latin1', 36, 40) !== 'acsp' || icc.toString('latin1', 16, 20) !== 'RGB ')
      problems.push('the output intent’s profile is not an RGB ICC profile')
  }

  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || String(object.get(PDFName.of('Type'))) !== '/Font') continue
    const subtype = String(object.get(PDFName.of('Subtype')))
    if (subtype === '/Type0') continue // its descendant font is a font dictionary of its own, checked as such
    const descriptor = dict(object.get(PDFName.of('FontDescriptor')))
    const embedded = ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor?.get(PDFName.of(key)))
    if (!embedded) problems.push(`font ${ref} (${object.get(PDFName.of('BaseFont'))}) is not embedded`)
  }

  // Every marked content of each page belongs to an element of the structure tree (its MCID in the parent tree).
  const parentTree = tree && dict(tree.get(PDFName.of('ParentTree')))
  const nums = parentTree && array(parentTree.get(PDFName.of('Nums')))
  pdf.getPages().forEach((page, index) => {
    const key = number(page.node.get(PDFName.of('StructParents')))
    const content = page.node.Contents()
    const streams = content instanceof PDFArray ? content.asArray().map((r) => stream(r)) : [stream(content)]
    const text = streams.map((s) => (s ? streamText(s) : '')).join('\n')
    const mcids = [...text.matchAll(/\/MCID (\d+)/g)].map((m) => Number(m[1]))
    if (mcids.length === 0) problems.push(`page ${index + 1} has no marked content`)
    let parents: PDFArray | undefined
    for (let i = 0; nums && i < nums.size(); i += 2) {
      if (number(nums.get(i)) === key) parents = array(nums.get(i + 1))
    }
    for (const mcid of mcids) if (!parents?.get(mcid)) problems.push(`page ${index + 1}: MCID ${mcid} has no structure element`)
    // Text outside marked content would be read by nobody: every BT sits inside a BDC … EMC.
    let depth = 0
    for (const [operator] of text.replace(/<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\)/g, '').matchAll(/\b(BDC|BMC|EMC|BT)\b/g)) {
      if (operator === 'EMC') depth--
      else if (operator === 'BT' && depth === 0) problems.push(`page ${index + 1}: text outside marked content`)
      else if (operator !== 'BT') depth++
    }
  })
  return problems
}
