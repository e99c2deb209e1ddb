// readAsDataUrl (src/wiring/first-screen.ts): the Kbis is sent as a data URL (spec §3), read from the chosen file in one
// promise. Node's Blob and btoa are the browser's here: no DOM needed.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readAsDataUrl } from '../../src/wiring/first-screen.ts'

const ReadFile = suite('a chosen file read as a data URL')

ReadFile('every byte value, over more than one slice, comes back exactly, with the file’s type', async () => {
  // 100 000 bytes: three slices of 32 768 and a rest; every byte value from 0 to 255 in it.
  const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7 + (i >> 8)) & 0xff)
  const url = await readAsDataUrl(new Blob([bytes], { type: 'application/pdf' }))
  const [head, body] = url.split(',') as [string, string]
  assert.is(head, 'data:application/pdf;base64')
  assert.equal(new Uint8Array(Buffer.from(body, 'base64')), bytes)
  assert.is(body, Buffer.from(bytes).toString('base64'))
})

ReadFile('an empty file, and a file without a type', async () => {
  assert.is(await readAsDataUrl(new Blob([], { type: 'application/pdf' })), 'data:application/pdf;base64,')
  assert.is(await readAsDataUrl(new Blob(['%PDF'])), `data:application/octet-stream;base64,${btoa('%PDF')}`)
})

ReadFile('a file that can no longer be read is told in French', async () => {
  const gone = {
    type: 'application/pdf',
    arrayBuffer: () => Promise.reject(new DOMException('gone', 'NotReadableError')),
  } as unknown as Blob
  try {
    await readAsDataUrl(gone)
    assert.unreachable('read')
  } catch (error) {
    assert.is((error as Error).message, 'Le fichier n’a pas pu être lu. Choisissez-le à nouveau.')
  }
})

ReadFile.run()
