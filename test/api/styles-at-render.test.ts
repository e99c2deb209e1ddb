// goober's sheet must be made by goober.ts, which gives it the CSP nonce. A css``, keyframes`` or glob`` at a module's
// top level writes the sheet when the module is evaluated, and esbuild's code splitting may evaluate that module's chunk
// before goober.ts: the sheet was then made without the nonce and every style of the portal blocked by the CSP (found
// by the browser suite once the flows were split per area: ui.tsx's touchLink). Styles are written when rendering only.
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const src = join(import.meta.dirname, '..', '..', 'src')
/** A goober call evaluated with its module: at the start of a line (top level), bare or assigned. */
const atLoad = /^(?:export\s+)?(?:(?:const|let|var)\s+\w+\s*=\s*)?(?:css|keyframes|glob)`/m

test('no module but goober.ts writes goober’s sheet when it is evaluated', async () => {
  const files = (await readdir(src, { recursive: true })).filter((f) => /\.tsx?$/.test(f)).map((f) => join(src, f))
  assert.ok(files.length > 50, `${files.length} files read`)
  const offenders = []
  for (const file of files) {
    if (relative(src, file) === join('views', 'goober.ts')) continue
    if (atLoad.test(await readFile(file, 'utf8'))) offenders.push(relative(src, file))
  }
  assert.equal(offenders, [], 'write the style when rendering (a function returning css``, or a styled component)')
})

test('the check sees a top-level css`` (it would have caught touchLink)', () => {
  assert.ok(atLoad.test("import { css } from 'goober'\nexport const touchLink = css`\n  color: red;\n`\n"))
  assert.ok(atLoad.test('glob`body { margin: 0 }`'))
  assert.not.ok(atLoad.test('export const touchLink = () => css`\n  color: red;\n`\n'))
  assert.not.ok(atLoad.test("const Box = styled('div')`\n  color: red;\n`"))
})

test.run()
