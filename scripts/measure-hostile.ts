// Throwaway: what the upload check and the render do with each hostile PDF (time, peak RSS of the process).
import { checkFile } from '../server/services/file-types.ts'
import { renderPagesOffThread } from '../server/services/letter-render-thread.ts'
import { badXrefPdf, bigImagePdf, contentBombPdf, manyPagesPdf } from '../test/util/hostile-pdfs.ts'
import { imageOnlyPdf, slowToDrawPdf } from '../test/util/letters.ts'

const [name, phase, arg] = process.argv.slice(2)
const n = Number(arg)
const make: Record<string, () => Promise<Buffer> | Buffer> = {
  image: () => bigImagePdf(n, n), content: () => contentBombPdf(n), pages: () => manyPagesPdf(n), xref: () => badXrefPdf(),
  slow: () => slowToDrawPdf(n), scan: () => imageOnlyPdf(['Bonjour madame']),
}
const pdf = await make[name!]!()
const base = process.resourceUsage().maxRSS
const t0 = performance.now()
let out: unknown
try {
  out = phase === 'check' ? await checkFile(pdf) : (await renderPagesOffThread(pdf, 60_000)).map((p) => `${p.width}x${p.height} ${p.bytes.length}B layer=${p.layer.length} scan=${!!p.scan}`)
} catch (e) { out = `ERROR ${(e as Error).message}` }
console.log(JSON.stringify({ name, arg, phase, size: pdf.length, ms: Math.round(performance.now() - t0), baseRssMB: Math.round(base / 1024), peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024), out }).slice(0, 400))
process.exit(0)
