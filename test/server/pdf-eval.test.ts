// pdf.js opens every customer PDF with isEvalSupported false (letter-render.ts, PDFJS_DOCUMENT_OPTIONS): a PostScript
// calculator function of the file (type 4) is interpreted, never compiled to JavaScript with `new Function`.
// tests: the embedded database only (no database at all; left out of the PostgreSQL run)
import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { PDFJS_DOCUMENT_OPTIONS, PDFJS_LIGHT_OPTIONS, renderPages } from '../../server/services/letter-render.ts'
import { postScriptFunctionPdf } from '../util/hostile-pdfs.ts'

test('the shared options say isEvalSupported false, the lighter ones too, and the letters’ rendering opens its PDF with one of them (its only pdf.js call)', () => {
  assert.is(PDFJS_DOCUMENT_OPTIONS.isEvalSupported, false)
  assert.is(PDFJS_LIGHT_OPTIONS.isEvalSupported, false)
  const source = readFileSync(new URL('../../server/services/letter-render.ts', import.meta.url), 'utf8')
  const opens = source.match(/getDocumentProxy\([^)]*\)[^\n]*/g) ?? []
  assert.is(opens.length, 1, opens.join('\n'))
  assert.match(opens[0]!, '{ ...options })')
  assert.match(source, 'const open = (options: typeof PDFJS_DOCUMENT_OPTIONS | typeof PDFJS_LIGHT_OPTIONS) =>')
  // Each page is drawn from that document (pdf.js's page.render), never from the bytes opened again elsewhere.
  assert.match(source, 'const page = await proxy.getPage(number)')
  assert.not.match(source, 'renderPageAsImage(')
})

test('a PDF whose shading is a PostScript function is drawn and read, and no JavaScript is built from it', async () => {
  const built: string[] = []
  const original = globalThis.Function
  globalThis.Function = new Proxy(original, {
    construct(target, args: string[]) {
      built.push(args.join(', '))
      return Reflect.construct(target, args)
    },
    apply(target, self, args: string[]) {
      built.push(args.join(', '))
      return Reflect.apply(target, self, args)
    },
  })
  try {
    const [page, ...others] = await renderPages(postScriptFunctionPdf())
    assert.is(others.length, 0)
    assert.ok(page!.bytes.length > 0, 'the page drawn')
    assert.match(page!.layer, 'Un degrade calcule')
  } finally {
    globalThis.Function = original
  }
  assert.equal(built, [], 'no Function built while drawing')
})

test.run()
