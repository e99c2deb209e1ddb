// The app's first render (src/views/takeover.ts, called by main.tsx): one synchronous commit over the /login page drawn
// ahead, keeping the focus; into a signed-in route's empty page, at transition priority (in slices).
import '../util/dom.ts'
import { createRoot, type Root } from 'react-dom/client'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { firstRender } from '../../src/views/takeover.ts'

const act = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
let root: Root | undefined
let container: HTMLElement

const FirstRender = suite('first render')
FirstRender.before.each(() => {
  // Outside act(): the test watches when React commits on its own.
  act.IS_REACT_ACT_ENVIRONMENT = false
  container = document.createElement('div')
  document.body.append(container)
})
FirstRender.after.each(() => {
  root?.unmount()
  container.remove()
  act.IS_REACT_ACT_ENVIRONMENT = true
})

function App() {
  return (
    <form>
      <label htmlFor="email">Adresse e-mail</label>
      <input id="email" />
      <p>rendu par React</p>
    </form>
  )
}

FirstRender('an empty page is rendered at transition priority: not committed in the call, committed once React has run', async () => {
  root = createRoot(container)
  firstRender(container, root, <App />)
  assert.is(container.innerHTML, '', 'a synchronous commit would be one long task on a phone')
  for (let i = 0; i < 50 && !container.textContent; i++) await new Promise((resolve) => setTimeout(resolve, 10))
  assert.ok(container.textContent?.includes('rendu par React'))
})

FirstRender('a page drawn ahead is taken over in one synchronous commit, the focus kept on the same field', () => {
  container.setAttribute('data-prerendered', '')
  container.innerHTML = '<form><label for="email">Adresse e-mail</label><input id="email"></form>'
  const drawn = container.querySelector('input')!
  drawn.focus()
  root = createRoot(container)
  firstRender(container, root, <App />)
  assert.ok(container.textContent?.includes('rendu par React'), 'committed during the call')
  assert.not.ok(container.hasAttribute('data-prerendered'))
  const field = container.querySelector('input')!
  assert.is.not(field, drawn)
  assert.is(document.activeElement, field)
})

FirstRender.run()
