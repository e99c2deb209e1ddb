// notifications: the bell in the header (count, panel, open = read + go, "Tout marquer comme
// lu", live events, errors with "Réessayer", Escape), a letter's "Historique", and the e-mail choices.
import '../../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { PortalNotification } from '../../../server/contract/notifications.ts'
import * as F from '../../util/fixtures.ts'
import { setViewport } from '../../util/dom.ts'
import { renderApp, type Scenario } from '../../util/services.tsx'
import { spreadDelay } from '../../../src/wiring/notifications.ts'

const notice = (id: number, read: boolean, title: string, link: string, createdAt = '2026-11-20T09:00:00.000Z'): PortalNotification => ({
  id,
  kind: 'letter',
  orderId: 2,
  title,
  body: 'administratif, 1 page — Boulangerie des Lilas SAS',
  createdAt,
  read,
  link,
})
const list = [
  notice(1, false, 'Nouveau courrier de URSSAF Île-de-France', '/mes-courriers/courriers?domiciliation=2&courrier=21'),
  notice(2, false, 'Nouveau colis', '/mes-courriers/colis', '2026-11-19T09:00:00.000Z'),
  notice(3, true, 'Nouvelle facture', '/factures', '2026-11-01T09:00:00.000Z'),
]
const documents = [F.letter(21, { sender: 'URSSAF Île-de-France', read: true, receivedAt: '2024-03-12T09:00:00.000Z' })]

const open = (path: string, scenario: Scenario = {}) =>
  renderApp(path, { signedIn: true, defaultOrder: 2, data: { documents }, ...scenario })

const Bell = suite('the bell')
Bell.before.each(() => setViewport(1280))
Bell.after.each(() => cleanup())

Bell('the count on the bell, the panel unread first, opening one marks it read and goes to it', async () => {
  const app = await open('/tableau-de-bord', { notifications: { list } })
  const bell = await screen.findByRole('button', { name: '2 notifications non lues' })
  fireEvent.click(bell)
  const panel = screen.getByRole('region', { name: 'Notifications' })
  const items = within(within(panel).getByRole('list')).getAllByRole('button')
  assert.equal(
    items.map((b) =>
      within(b)
        .getByText(/Nouveau|Nouvelle/)
        .textContent!.replace(' (non lue)', ''),
    ),
    ['Nouveau courrier de URSSAF Île-de-France', 'Nouveau colis', 'Nouvelle facture'],
  )
  assert.match(items[2]!.textContent!, '1er novembre')
  fireEvent.click(items[0]!)
  await waitFor(() => assert.ok(app.calls.navigations.includes('/mes-courriers/courriers?domiciliation=2&courrier=21')))
  await waitFor(() => assert.ok(app.calls.notifications.some(([name, id]) => name === 'readNotification' && id === 1)))
  await screen.findByRole('button', { name: '1 notification non lue' })
  assert.not.ok(screen.queryByRole('region', { name: 'Notifications' }), 'the panel closes')
})

Bell('the bell’s aria-controls names the panel only while the panel is there (closed, it names nothing absent)', async () => {
  await open('/tableau-de-bord', { notifications: { list } })
  const bell = await screen.findByRole('button', { name: '2 notifications non lues' })
  const named = () => bell.getAttribute('aria-controls')
  assert.is(named(), null, 'closed: no panel to name')
  fireEvent.click(bell)
  assert.is(bell.getAttribute('aria-expanded'), 'true')
  assert.is(document.getElementById(named()!), screen.getByRole('region', { name: 'Notifications' }))
  fireEvent.keyDown(bell, { key: 'Escape' })
  await waitFor(() => assert.not.ok(screen.queryByRole('region', { name: 'Notifications' })))
  assert.is(named(), null, 'closed again')
  // Nothing on the page names an element that is absent.
  for (const control of document.querySelectorAll('[aria-controls]'))
    for (const id of control.getAttribute('aria-controls')!.split(/\s+/))
      assert.ok(document.getElementById(id), `${control.outerHTML.slice(0, 80)} names #${id}, absent`)
})

Bell(
  'a notification opened: the focus goes to the page it leads to (its heading, or its content), or back to the bell when it is this page',
  async () => {
    const formality: PortalNotification = { ...notice(4, false, 'Votre formalité avance', '/formalites'), kind: 'formality' }
    const app = await open('/tableau-de-bord', { notifications: { list: [...list, formality] } })
    const openOne = async (title: RegExp) => {
      const bell = await screen.findByRole('button', { name: /notification/ })
      bell.focus()
      fireEvent.click(bell)
      const item = within(screen.getByRole('region', { name: 'Notifications' })).getByRole('button', { name: title })
      item.focus()
      fireEvent.click(item)
    }
    await openOne(/Votre formalité avance/)
    await waitFor(() => assert.is(app.currentPath(), '/formalites'))
    const heading = await screen.findByRole('heading', { name: 'Mes formalités', level: 2 })
    await waitFor(() => assert.is(document.activeElement, heading, `the focus is on ${document.activeElement?.tagName}`))
    await openOne(/Nouveau colis/)
    await waitFor(() => assert.is(app.currentPath(), '/mes-courriers/colis'))
    await waitFor(() => assert.is(document.activeElement, screen.getByRole('main'), `the focus is on ${document.activeElement?.tagName}`))
    await openOne(/Nouvelle facture/)
    await waitFor(() => assert.is(app.currentPath(), '/factures'))
    await openOne(/Nouvelle facture/)
    await waitFor(() =>
      assert.is(
        document.activeElement,
        screen.getByRole('button', { name: /notification/ }),
        `the focus is on ${document.activeElement?.tagName}`,
      ),
    )
  },
)

Bell('"Tout marquer comme lu"; then "Aucune nouvelle notification"; Escape closes and the focus returns to the bell', async () => {
  const app = await open('/tableau-de-bord', { notifications: { list } })
  fireEvent.click(await screen.findByRole('button', { name: '2 notifications non lues' }))
  fireEvent.click(screen.getByRole('button', { name: 'Tout marquer comme lu' }))
  await screen.findByRole('button', { name: 'Notifications' })
  assert.ok(app.calls.notifications.some(([name]) => name === 'readAllNotifications'))
  screen.getByText('Aucune nouvelle notification')
  fireEvent.keyDown(screen.getByRole('region', { name: 'Notifications' }), { key: 'Escape' })
  assert.not.ok(screen.queryByRole('region', { name: 'Notifications' }))
  assert.is(document.activeElement, screen.getByRole('button', { name: 'Notifications' }))
})

Bell('"Tout marquer comme lu" keeps the focus while saving; gone once all is read, the panel takes it; Escape still closes', async () => {
  let release!: () => void
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await open('/tableau-de-bord', { notifications: { list }, held: { readAllNotifications: held } })
  fireEvent.click(await screen.findByRole('button', { name: '2 notifications non lues' }))
  const readAll = screen.getByRole('button', { name: 'Tout marquer comme lu' }) as HTMLButtonElement
  readAll.focus()
  fireEvent.click(readAll)
  assert.is(readAll.disabled, false, 'not disabled: Chrome would drop its focus')
  assert.is(readAll.getAttribute('aria-disabled'), 'true')
  assert.is(document.activeElement, readAll)
  release()
  await screen.findByRole('button', { name: 'Notifications' })
  const panel = screen.getByRole('region', { name: 'Notifications' })
  await waitFor(() => assert.is(document.activeElement, panel, `the focus is on ${document.activeElement?.tagName}`))
  // Escape from nowhere (the focus on <body>) closes it too.
  ;(document.activeElement as HTMLElement).blur()
  fireEvent.keyDown(document.body, { key: 'Escape' })
  assert.not.ok(screen.queryByRole('region', { name: 'Notifications' }))
  assert.is(document.activeElement, screen.getByRole('button', { name: 'Notifications' }))
})

Bell('opening the panel gives it the focus without scrolling the page', async () => {
  await open('/tableau-de-bord', { notifications: { list } })
  const bell = await screen.findByRole('button', { name: '2 notifications non lues' })
  const focus = HTMLElement.prototype.focus
  const calls: { id: string; options: FocusOptions | undefined }[] = []
  HTMLElement.prototype.focus = function (this: HTMLElement, options?: FocusOptions) {
    calls.push({ id: this.id, options })
    focus.call(this, options)
  }
  try {
    fireEvent.click(bell)
    await waitFor(() => assert.is(document.activeElement, screen.getByRole('region', { name: 'Notifications' })))
  } finally {
    HTMLElement.prototype.focus = focus
  }
  assert.equal(
    calls.filter((c) => c.id === 'notifications').map((c) => c.options),
    [{ preventScroll: true }],
  )
})

Bell('« Fermer » closes the panel and gives the focus back to the bell; so does a click or tap outside it, not one inside', async () => {
  await open('/tableau-de-bord', { notifications: { list } })
  const bell = await screen.findByRole('button', { name: '2 notifications non lues' })
  fireEvent.click(bell)
  fireEvent.click(within(screen.getByRole('region', { name: 'Notifications' })).getByRole('button', { name: 'Fermer' }))
  assert.not.ok(screen.queryByRole('region', { name: 'Notifications' }))
  assert.is(document.activeElement, bell)
  fireEvent.click(bell)
  fireEvent.pointerDown(screen.getByRole('heading', { name: 'Notifications' }))
  assert.ok(screen.queryByRole('region', { name: 'Notifications' }), 'a press inside leaves it open')
  fireEvent.pointerDown(screen.getByRole('main'))
  await waitFor(() => assert.not.ok(screen.queryByRole('region', { name: 'Notifications' }), 'a press outside closes it'))
  fireEvent.click(bell)
  fireEvent.pointerDown(bell)
  fireEvent.click(bell)
  assert.not.ok(screen.queryByRole('region', { name: 'Notifications' }), 'the bell itself toggles it closed, not closed then opened again')
})

Bell('empty: "Aucune nouvelle notification"; a live one lights the bell while the page is open', async () => {
  const app = await open('/tableau-de-bord')
  const bell = await screen.findByRole('button', { name: 'Notifications' })
  fireEvent.click(bell)
  await screen.findByText('Aucune nouvelle notification')
  await waitFor(() => assert.ok(app.calls.live))
  await act(async () =>
    app.calls.live!.push(
      notice(9, false, 'Nouveau courrier de Impots.gouv', '/mes-courriers/courriers?domiciliation=2&courrier=30', new Date().toISOString()),
    ),
  )
  await screen.findByRole('button', { name: '1 notification non lue' })
  const item = screen.getByText('Nouveau courrier de Impots.gouv')
  assert.match(item.closest('button')!.textContent!, 'à l’instant')
})

Bell('the wait before following the stream again is spread between half and all of the flow’s delay', () => {
  assert.equal([spreadDelay(1000, () => 0), spreadDelay(1000, () => 0.5), spreadDelay(1000, () => 0.9999)], [500, 750, 1000])
  const waits = Array.from({ length: 200 }, () => spreadDelay(30_000))
  assert.ok(waits.every((ms) => ms >= 15_000 && ms <= 30_000))
  assert.ok(new Set(waits).size > 100, 'spread out, not one value')
})

Bell('a failed load: the error and "Réessayer"', async () => {
  await open('/tableau-de-bord', { notifications: { list, fails: ['load'] } })
  fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }))
  const panel = screen.getByRole('region', { name: 'Notifications' })
  await within(panel).findByText(/indisponible/)
  fireEvent.click(within(panel).getByRole('button', { name: 'Réessayer' }))
  await screen.findByRole('button', { name: '2 notifications non lues' })
})

// The fake answers at the next microtask: clicks fired in a row land while the call before is still saving.
const calledWith = (app: Awaited<ReturnType<typeof open>>, name: string) =>
  app.calls.notifications.filter(([call]) => call === name).map(([, id]) => id)

Bell('a click on a notification while "Tout marquer comme lu" is saving goes to its page, and it ends up read', async () => {
  const app = await open('/tableau-de-bord', { notifications: { list } })
  fireEvent.click(await screen.findByRole('button', { name: '2 notifications non lues' }))
  const readAll = screen.getByRole('button', { name: 'Tout marquer comme lu' }) as HTMLButtonElement
  fireEvent.click(readAll)
  assert.is(readAll.getAttribute('aria-disabled'), 'true', 'saving')
  fireEvent.click(screen.getByText('Nouveau colis').closest('button')!)
  assert.ok(app.calls.navigations.includes('/mes-courriers/colis'), 'goes there at once')
  await screen.findByRole('button', { name: 'Notifications' })
  await waitFor(() => assert.equal(calledWith(app, 'readNotification'), [2]))
  assert.equal(calledWith(app, 'readAllNotifications').length, 1)
})

Bell('two unread notifications opened quickly are both read', async () => {
  const app = await open('/tableau-de-bord', { notifications: { list } })
  fireEvent.click(await screen.findByRole('button', { name: '2 notifications non lues' }))
  fireEvent.click(screen.getByText('Nouveau colis').closest('button')!)
  fireEvent.click(screen.getByRole('button', { name: '1 notification non lue' }))
  fireEvent.click(screen.getByText('Nouveau courrier de URSSAF Île-de-France').closest('button')!)
  assert.equal(calledWith(app, 'readNotification'), [2], 'the second waits for the first')
  assert.ok(
    app.calls.navigations.includes('/mes-courriers/colis') &&
      app.calls.navigations.includes('/mes-courriers/courriers?domiciliation=2&courrier=21'),
    'both go to their page',
  )
  await waitFor(() => assert.equal(calledWith(app, 'readNotification'), [2, 1]))
  const bell = await screen.findByRole('button', { name: 'Notifications' })
  fireEvent.click(bell)
  assert.not.ok(screen.queryByText(/\(non lue\)/), 'both shown read')
})

Bell('"Tout marquer comme lu" clicked while a notification’s read mark is saving is honoured', async () => {
  const app = await open('/tableau-de-bord', { notifications: { list } })
  fireEvent.click(await screen.findByRole('button', { name: '2 notifications non lues' }))
  fireEvent.click(screen.getByText('Nouveau colis').closest('button')!)
  fireEvent.click(screen.getByRole('button', { name: '1 notification non lue' }))
  const readAll = screen.getByRole('button', { name: 'Tout marquer comme lu' }) as HTMLButtonElement
  assert.not.ok(readAll.disabled, 'offered')
  fireEvent.click(readAll)
  await screen.findByRole('button', { name: 'Notifications' })
  await waitFor(() =>
    assert.equal(
      app.calls.notifications.filter(([call]) => /^read/.test(call as string)),
      [['readNotification', 2], ['readAllNotifications']],
    ),
  )
  screen.getByText('Aucune nouvelle notification')
})

Bell('a failed first load is asked again by itself after the pause: the list, then the stream, the panel never opened', async () => {
  const app = await open('/tableau-de-bord', { notifications: { list, fails: ['load'] } })
  await screen.findByRole('button', { name: 'Notifications' })
  assert.equal(calledWith(app, 'getNotifications').length, 1)
  // 1 s, spread between 0.5 and 1 s.
  await screen.findByRole('button', { name: '2 notifications non lues' }, { timeout: 3000 })
  await waitFor(() => assert.ok(app.calls.live, 'the stream is followed'))
  assert.equal(calledWith(app, 'getNotifications').length, 2)
  assert.not.ok(screen.queryByRole('region', { name: 'Notifications' }))
  // The portal is told of news: its letters read again, once.
  const letterLoads = () => app.calls.loads.filter((l) => l.resource === 'documents').length
  const before = letterLoads()
  await act(async () =>
    app.calls.live!.push(
      notice(9, false, 'Nouveau courrier de Impots.gouv', '/mes-courriers/courriers?domiciliation=2&courrier=30', new Date().toISOString()),
    ),
  )
  await act(async () =>
    app.calls.live!.push(
      notice(9, false, 'Nouveau courrier de Impots.gouv', '/mes-courriers/courriers?domiciliation=2&courrier=30', new Date().toISOString()),
    ),
  )
  await waitFor(() => assert.is(letterLoads(), before + 1))
  await screen.findByRole('button', { name: '3 notifications non lues' })
  assert.is(letterLoads(), before + 1, 'once')
})

Bell(
  'a stream another tab’s replaced is followed again only once this page is looked at: no tab takes another’s place by itself',
  async () => {
    const app = await open('/tableau-de-bord', { notifications: { list } })
    await waitFor(() => assert.ok(app.calls.live, 'the stream is followed'))
    const follows = () => calledWith(app, 'followNotifications').length
    const lists = calledWith(app, 'getNotifications').length
    assert.is(follows(), 1)
    await act(async () => app.calls.live!.replaced())
    // Past the pause a drop waits (1 s at most): still nothing.
    await new Promise((resolve) => setTimeout(resolve, 1200))
    assert.equal([follows(), calledWith(app, 'getNotifications').length], [1, lists], 'not followed again, the list not read again')
    // The person comes back to this tab: the list is read again, then the stream followed.
    assert.is(document.visibilityState, 'visible')
    await act(async () => void document.dispatchEvent(new Event('visibilitychange')))
    await waitFor(() => assert.is(follows(), 2))
    assert.is(calledWith(app, 'getNotifications').length, lists + 1)
  },
)

Bell('a read mark that fails is put back and said', async () => {
  await open('/tableau-de-bord', { notifications: { list, fails: ['read'] } })
  fireEvent.click(await screen.findByRole('button', { name: '2 notifications non lues' }))
  fireEvent.click(screen.getByText('Nouveau colis').closest('button')!)
  await screen.findByRole('button', { name: '2 notifications non lues' })
  fireEvent.click(screen.getByRole('button', { name: '2 notifications non lues' }))
  await screen.findByText(/^La notification n’a pas pu être marquée comme lue\. .*indisponible/)
})

Bell.run()

const History = suite('the letter’s Historique')
History.before.each(() => setViewport(1280))
History.after.each(() => cleanup())

History('received, scanned, opened by whom, sent to whom, filed, forwarded, with dates', async () => {
  await open('/mes-courriers/courriers', {
    notifications: {
      history: {
        21: [
          { kind: 'received', at: '2024-03-12T08:00:00.000Z', actor: null, detail: null },
          { kind: 'scanned', at: '2024-03-12T10:00:00.000Z', actor: null, detail: null },
          { kind: 'opened', at: '2024-03-13T09:00:00.000Z', actor: 'vous', detail: null },
          { kind: 'opened', at: '2024-03-13T10:00:00.000Z', actor: 'Julien Moreau', detail: null },
          { kind: 'emailed', at: '2024-03-14T09:00:00.000Z', actor: 'vous', detail: 'comptable@example.com' },
          { kind: 'moved', at: '2024-03-15T09:00:00.000Z', actor: 'Julien Moreau', detail: 'Banque' },
          { kind: 'forwarded', at: '2024-03-16T09:00:00.000Z', actor: null, detail: '12 rue des Lilas, 69003 Lyon' },
        ],
      },
    },
  })
  const history = await screen.findByRole('region', { name: 'Historique' })
  await waitFor(() => within(history).getByText('Reçu'))
  const lines = within(history)
    .getAllByRole('listitem')
    .map((li) => li.querySelector('span')!.textContent)
  assert.equal(lines, [
    'Reçu',
    'Numérisé',
    'Ouvert par vous',
    'Ouvert par Julien Moreau',
    'Envoyé par e-mail à comptable@example.com par vous',
    'Classé dans « Banque » par Julien Moreau',
    'Réexpédié à 12 rue des Lilas, 69003 Lyon',
  ])
  assert.match(history.textContent!, '12 mars 2024')
})

History('a history that cannot be read: the error and "Réessayer"', async () => {
  await open('/mes-courriers/courriers', { notifications: { fails: ['history'] } })
  const history = await screen.findByRole('region', { name: 'Historique' })
  await within(history).findByRole('button', { name: 'Réessayer' })
})

History.run()

const Choices = suite('the e-mail choices on /informations-personnelles')
Choices.before.each(() => setViewport(360))
Choices.after.each(() => cleanup())

Choices('per order, each person’s own: saved at once, a failed save puts the choice back and says so', async () => {
  const app = await open('/informations-personnelles', { notifications: { preferences: { 2: 'digest' } } })
  const section = await screen.findByRole('region', { name: 'E-mails de notification' })
  const boulangerie = await within(section).findByRole('group', { name: 'Boulangerie des Lilas SAS' })
  assert.is((within(boulangerie).getByRole('radio', { name: 'Un résumé quotidien' }) as HTMLInputElement).checked, true)
  fireEvent.click(within(boulangerie).getByRole('radio', { name: 'Aucun e-mail' }))
  await within(boulangerie).findByText('Votre choix est enregistré.')
  assert.ok(app.calls.notifications.some((c) => c[0] === 'updateNotificationPreferences' && c[1] === 2 && c[2] === 'none'))
  assert.equal(
    within(section)
      .getAllByRole('group')
      .map((g) => g.querySelector('legend')!.textContent),
    [F.atelier, F.boulangerie, F.studio, F.conseil].map((o) => o.raisonSociale),
  )
})

Choices('a failed save', async () => {
  await open('/informations-personnelles', { notifications: { fails: ['savePreference'] } })
  const section = await screen.findByRole('region', { name: 'E-mails de notification' })
  const group = await within(section).findByRole('group', { name: 'Boulangerie des Lilas SAS' })
  fireEvent.click(within(group).getByRole('radio', { name: 'Un résumé quotidien' }))
  await within(group).findByRole('alert')
  assert.match(within(group).getByRole('alert').textContent!, 'indisponible')
  assert.is((within(group).getByRole('radio', { name: 'Un e-mail par événement' }) as HTMLInputElement).checked, true)
})

Choices.run()
