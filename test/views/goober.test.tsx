// goober's sheet written once per task (src/views/goober.ts): Blink parses the whole style element again at
// each write, so the rules of one render must reach it together; goober must still see them at once (no rule twice),
// and the element may be the one the prerendered /login page brought, or one made with the page's CSP nonce.
import '../util/dom.ts'
import '../../src/views/goober.ts'
import { css } from 'goober'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

const Sheet = suite('goober sheet')
const element = () => document.getElementById('_goober') as HTMLStyleElement
const microtask = () => new Promise<void>((resolve) => queueMicrotask(resolve))
let writes = 0
const data = Object.getOwnPropertyDescriptor(CharacterData.prototype, 'data')!
Sheet.before(async () => {
  await microtask()
  Object.defineProperty(CharacterData.prototype, 'data', {
    configurable: true,
    get() {
      return data.get!.call(this)
    },
    set(value: string) {
      if ((this as Text).parentNode === element()) writes++
      data.set!.call(this, value)
    },
  })
})
Sheet.after(() => {
  Object.defineProperty(CharacterData.prototype, 'data', data)
})
Sheet.before.each(() => {
  writes = 0
})

Sheet('the rules of one task reach the style element in one write, from a microtask', async () => {
  const classes = [css`color: rgb(1, 2, 3);`, css`color: rgb(4, 5, 6);`, css`margin: 7px;`]
  assert.is(writes, 0, 'nothing written during the task')
  await microtask()
  assert.is(writes, 1)
  for (const name of classes) assert.ok(element().textContent!.includes(`.${name}{`), `${name} in the sheet`)
})

Sheet('goober sees the rules still pending: one asked twice in a task is written once', async () => {
  const first = css`color: rgb(8, 9, 10);`
  css`padding: 11px;`
  assert.is(css`color: rgb(8, 9, 10);`, first)
  await microtask()
  assert.is(element().textContent!.split(`.${first}{`).length - 1, 1)
  assert.is(writes, 1)
})

Sheet('the element drawn ahead keeps its rules, the new ones after them', async () => {
  element()?.remove()
  const drawn = Object.assign(document.createElement('style'), { id: '_goober', textContent: '.drawn{color:red}' })
  document.head.append(drawn)
  const name = css`color: rgb(12, 13, 14);`
  await microtask()
  assert.is(element(), drawn)
  assert.ok(drawn.textContent!.startsWith('.drawn{color:red}'))
  assert.ok(drawn.textContent!.includes(`.${name}{`))
})

Sheet('without an element, one is made in the head, with the page’s nonce', async () => {
  element()?.remove()
  const page = window as unknown as { __nonce__?: string }
  page.__nonce__ = 'n0nce'
  try {
    const name = css`color: rgb(15, 16, 17);`
    await microtask()
    assert.is(element().parentElement, document.head)
    assert.is(element().nonce, 'n0nce')
    assert.ok(element().textContent!.includes(`.${name}{`))
  } finally {
    delete page.__nonce__
  }
})

Sheet.run()
