// Several tabs of one browser share the stored user entry: what one tab writes or removes, the others
// are told of by a `storage` event (dispatched by hand here: happy-dom, like a browser, sends none to
// the tab that wrote).
import '../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readStoredChoice, removeStoredSession, USER_KEY, writeStoredChoice } from '../../src/wiring/storage.ts'
import * as F from '../util/fixtures.ts'
import { renderApp } from '../util/services.tsx'

/** What another tab is told of: each change of the user entry made here ('written' or 'removed'). */
function watchUserEntry() {
  const seen: ('written' | 'removed')[] = []
  const proto = Object.getPrototypeOf(localStorage) as Storage
  const { removeItem, setItem } = proto
  proto.removeItem = function (key: string) {
    if (key === USER_KEY && this.getItem(key) !== null) seen.push('removed')
    return removeItem.call(this, key)
  }
  proto.setItem = function (key: string, value: string) {
    if (key === USER_KEY) seen.push('written')
    return setItem.call(this, key, value)
  }
  return { seen, stop: () => Object.assign(proto, { removeItem, setItem }) }
}

/** Another tab changed the user entry (already done in the shared storage): this tab's event. */
const changedElsewhere = (oldValue: string | null, newValue: string | null) =>
  act(async () => void window.dispatchEvent(new StorageEvent('storage', { key: USER_KEY, oldValue, newValue })))

const Tabs = suite('several tabs')
Tabs.after.each(() => cleanup())

Tabs(
  'accepting an invitation while signed in: the user entry is written again, never removed, so the other tabs stay signed in',
  async () => {
    const app = await renderApp('/invitation/jeton-11', {
      signedIn: true,
      defaultOrder: 2,
      people: { invitation: { email: 'demo@example.com', raisonSociale: 'Studio Nuage SAS', invitedBy: 'Jules Petit', hasAccount: true } },
    })
    const accept = await screen.findByRole('button', { name: 'Accepter l’invitation' })
    const entry = watchUserEntry()
    try {
      fireEvent.click(accept)
      await waitFor(() => assert.is(app.currentPath(), '/tableau-de-bord'))
      await screen.findByText('Bonjour Camille')
    } finally {
      entry.stop()
    }
    assert.not.ok(entry.seen.includes('removed'), `the other tabs are told of a sign-out (${entry.seen.join(', ')})`)
    assert.ok(app.session.getSnapshot().matches('signedIn'))
    assert.is(localStorage.getItem(USER_KEY), JSON.stringify(F.authUser))
  },
)

Tabs('a sign-out elsewhere told late, once the entry is written back: this tab stays signed in', async () => {
  const app = await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2 })
  await screen.findByText('Bonjour Camille')
  // Another tab removed the entry and wrote it again; the removal's event arrives now.
  await changedElsewhere(JSON.stringify(F.authUser), null)
  assert.ok(app.session.getSnapshot().matches('signedIn'))
  screen.getByText('Bonjour Camille')
  // Removed for good there: this tab signs out too.
  localStorage.removeItem(USER_KEY)
  await changedElsewhere(JSON.stringify(F.authUser), null)
  await waitFor(() => assert.is(app.currentPath(), '/login'))
  assert.ok(app.session.getSnapshot().matches('signedOut'))
})

Tabs('signed in in another tab while this one shows /login: this tab opens the portal too, not an endless spinner', async () => {
  const app = await renderApp('/login', { orders: [F.boulangerie] })
  await screen.findByRole('button', { name: 'Se connecter' })
  localStorage.setItem(USER_KEY, JSON.stringify(F.authUser))
  await changedElsewhere(null, JSON.stringify(F.authUser))
  await screen.findByText('Bonjour Camille')
  assert.is(app.currentPath(), '/tableau-de-bord')
  assert.equal(app.session.getSnapshot().context.user, F.authUser)
  assert.is(document.activeElement, document.body, 'no sign-in here: the focus is not moved (the person is in the other tab)')
})

Tabs('a sign-out removes the entry only while it holds this sign-in: another tab’s newer sign-in stays', () => {
  const other = { ...F.authUser, apiToken: 'tok_other_tab' }
  localStorage.setItem(USER_KEY, JSON.stringify(other))
  writeStoredChoice(F.authUser.id, 2)
  removeStoredSession(F.authUser.apiToken)
  assert.is(localStorage.getItem(USER_KEY), JSON.stringify(other))
  removeStoredSession(other.apiToken)
  assert.is(localStorage.getItem(USER_KEY), null)
  assert.is(readStoredChoice(F.authUser.id), 2, 'the default order is the person’s, not the sign-in’s: it stays')
})

Tabs.run()
