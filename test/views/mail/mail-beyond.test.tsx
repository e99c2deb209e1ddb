// Issue 14 in the views: the letter's page images where the browser draws no PDF, the search in the
// letters' text, the deadlines found in them (list, viewer, dashboard, fiscal calendar).
import '../../util/dom.ts'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { DocumentSearchQuery, type DocumentSearchResult, type LetterDeadline } from '../../../server/contract/mail.ts'
import * as F from '../../util/fixtures.ts'
import { setViewport } from '../../util/dom.ts'
import { renderApp, type Scenario } from '../../util/services.tsx'

const documents = [
  F.letter(21, {
    sender: 'URSSAF Île-de-France',
    kind: 'administratif',
    receivedAt: '2026-11-12T09:00:00.000Z',
    pages: 3,
    pageImages: 3,
    deadline: { date: '2027-02-15', amountCents: 32000 },
  }),
  F.letter(22, { sender: 'BNP Paribas', read: true, receivedAt: '2026-11-10T09:00:00.000Z', pageImages: 0 }),
  F.letter(24, { sender: 'Greffe du tribunal', kind: 'recommandé', read: true, receivedAt: '2026-11-08T09:00:00.000Z' }),
]
const data = { documents }

/** The first screen of a test waits for the page's code and lists: longer on a loaded machine. */
const slow = { timeout: 5000 }

async function open(path: string, scenario: Scenario & { defaultOrder?: 2 | 'all' } = {}) {
  return renderApp(path, { signedIn: true, defaultOrder: 2, data, ...scenario })
}

// The browser's PDF viewer, as the wiring reads it.
function pdfViewer(enabled: boolean | undefined) {
  Object.defineProperty(window.navigator, 'pdfViewerEnabled', { configurable: true, get: () => enabled })
}

// IntersectionObserver the test drives: `show(page)` brings a page into view.
const observed = new Map<Element, IntersectionObserverCallback>()
class FakeObserver {
  constructor(private callback: IntersectionObserverCallback) {}
  observe(element: Element) {
    observed.set(element, this.callback)
  }
  disconnect() {
    for (const [element, callback] of observed) if (callback === this.callback) observed.delete(element)
  }
  unobserve(element: Element) {
    observed.delete(element)
  }
  takeRecords() {
    return []
  }
}
function show(page: number) {
  const [element, callback] = [...observed].find(([e]) => e.getAttribute('data-page') === String(page)) ?? []
  if (!element || !callback) throw new Error(`page ${page} is not watched`)
  act(() => callback([{ isIntersecting: true, target: element } as unknown as IntersectionObserverEntry], {} as IntersectionObserver))
}

const Images = suite('the letter viewer without a PDF viewer: page images')
const realObserver = (window as unknown as { IntersectionObserver: unknown }).IntersectionObserver
Images.after(() => void ((window as unknown as { IntersectionObserver: unknown }).IntersectionObserver = realObserver))
Images.before.each(() => {
  setViewport(1280)
  pdfViewer(false)
  observed.clear()
  ;(window as unknown as { IntersectionObserver: unknown }).IntersectionObserver = FakeObserver
})
Images.after.each(() => {
  cleanup()
  pdfViewer(undefined)
})

Images('pages come as they scroll into view, with "Page n sur 3", from blob: URLs; no embedded PDF; Télécharger stays', async () => {
  const app = await open('/mes-courriers/courriers')
  const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' }, slow)
  await within(viewer).findByText('Page 1 sur 3', {}, slow)
  within(viewer).getByText('Page 3 sur 3')
  assert.is(viewer.querySelector('iframe'), null, 'no embedded PDF')
  assert.equal(app.calls.pageLoads, [], 'nothing fetched before it shows')
  show(1)
  const first = await within(viewer).findByRole('img', { name: 'Page 1 sur 3 du courrier de URSSAF Île-de-France' })
  assert.match(first.getAttribute('src')!, /^blob:/)
  show(3)
  await within(viewer).findByRole('img', { name: 'Page 3 sur 3 du courrier de URSSAF Île-de-France' })
  assert.equal(app.calls.pageLoads, [
    { documentId: 21, page: 1 },
    { documentId: 21, page: 3 },
  ])
  assert.is(within(viewer).queryByRole('img', { name: /Page 2 sur 3/ }), null)
  await waitFor(() => assert.match(within(viewer).getByRole('link', { name: 'Télécharger' }).getAttribute('href')!, /^blob:/))
  assert.is(within(viewer).queryByRole('link', { name: 'Ouvrir en plein écran' }), null, 'a PDF tab would not show either')
})

Images('Zoom + and Zoom − widen the pages by steps, pinch-zoom allowed', async () => {
  await open('/mes-courriers/courriers')
  const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' }, slow)
  const zoomIn = await within(viewer).findByRole('button', { name: 'Zoom +' })
  const zoomOut = within(viewer).getByRole('button', { name: 'Zoom −' })
  const page = () => viewer.querySelector<HTMLElement>('figure[data-page="1"]')!
  assert.is(page().style.width, '100%')
  // At a limit a button is unavailable but not disabled: the one just pressed keeps the focus (Chrome drops a
  // disabled button's focus to <body>), and a press there does nothing.
  assert.is(zoomOut.getAttribute('aria-disabled'), 'true')
  assert.is((zoomOut as HTMLButtonElement).disabled, false)
  fireEvent.click(zoomOut)
  assert.is(page().style.width, '100%')
  zoomIn.focus()
  fireEvent.click(zoomIn)
  assert.is(page().style.width, '150%')
  within(viewer).getByText('150 %')
  assert.is(zoomOut.getAttribute('aria-disabled'), null)
  fireEvent.click(zoomIn)
  fireEvent.click(zoomIn)
  assert.is(page().style.width, '300%')
  assert.is(zoomIn.getAttribute('aria-disabled'), 'true')
  assert.is((zoomIn as HTMLButtonElement).disabled, false)
  assert.is(document.activeElement, zoomIn, 'the focus stays on Zoom + at the limit')
  fireEvent.click(zoomIn)
  assert.is(page().style.width, '300%')
  fireEvent.click(zoomOut)
  assert.is(page().style.width, '200%')
  const scroller = within(viewer).getByRole('region', { name: 'Pages du courrier de URSSAF Île-de-France' })
  assert.is(scroller.getAttribute('tabindex'), '0', 'the keyboard can scroll a zoomed page')
  assert.match(getComputedStyle(scroller).touchAction, 'pinch-zoom')
})

Images('a page that fails says so; Réessayer fetches it again', async () => {
  const app = await open('/mes-courriers/courriers', { mailPipeline: { failingPages: [1] } })
  const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' }, slow)
  await within(viewer).findByText('Page 1 sur 3', {}, slow)
  show(1)
  await within(viewer).findByText('Cette page n’a pas pu être chargée. Image de cette page introuvable.')
  const retry = within(viewer).getByRole('button', { name: 'Réessayer' })
  retry.focus()
  fireEvent.click(retry)
  await waitFor(() =>
    assert.equal(app.calls.pageLoads, [
      { documentId: 21, page: 1 },
      { documentId: 21, page: 1 },
    ]),
  )
  // It fails again: the button pressed went with its alert, the focus goes to the new 'Réessayer', not to <body>.
  await waitFor(() => assert.is(document.activeElement, within(viewer).getByRole('button', { name: 'Réessayer' })))
  assert.is.not(document.activeElement, retry)
})

Images('no images yet: the preview is being prepared, the letter can be downloaded', async () => {
  const app = await open('/mes-courriers/courriers')
  const list = await screen.findByRole('listbox', { name: 'Courriers' }, slow)
  fireEvent.click(within(list).getByText('BNP Paribas'))
  const viewer = screen.getByRole('region', { name: 'Aperçu du courrier' })
  await within(viewer).findByText('L’aperçu de ce courrier est en cours de préparation. Vous pouvez déjà le télécharger.')
  await waitFor(() => assert.match(within(viewer).getByRole('link', { name: 'Télécharger' }).getAttribute('href')!, /^blob:/))
  assert.is(viewer.querySelector('figure'), null)
  assert.ok(app.calls.pageLoads.every((l) => l.documentId !== 22))
})

Images('a letter being prepared shows its pages once the server has made them, without a reload; the list stays', async () => {
  const letters = documents.map((d) => ({ ...d }))
  const app = await open('/mes-courriers/courriers', { data: { documents: letters } })
  const list = await screen.findByRole('listbox', { name: 'Courriers' }, slow)
  fireEvent.click(within(list).getByText('BNP Paribas'))
  const viewer = screen.getByRole('region', { name: 'Aperçu du courrier' })
  await within(viewer).findByText('L’aperçu de ce courrier est en cours de préparation. Vous pouvez déjà le télécharger.')
  const readings = () => app.calls.loads.filter((l) => l.resource === 'documents').length
  const before = readings()
  // The server makes its two pages meanwhile: the letters are read again after 2 s (letterPages.machine.ts).
  letters[1] = { ...letters[1]!, pageImages: 2 }
  await within(viewer).findByText('Page 1 sur 2', { exact: true }, { timeout: 4000 })
  assert.is(readings(), before + 1, 'read again once')
  assert.is(within(viewer).queryByText(/en cours de préparation/), null)
  show(1)
  await within(viewer).findByRole('img', { name: 'Page 1 sur 2 du courrier de BNP Paribas' })
  assert.equal(app.calls.pageLoads, [{ documentId: 22, page: 1 }])
  // The same letter still open, the list still there.
  assert.is(within(list).getByText('BNP Paribas').closest('[role="option"]')!.getAttribute('aria-selected'), 'true')
})

Images('closing the letter gives the page images’ memory back', async () => {
  const revoked: string[] = []
  const revoke = URL.revokeObjectURL
  URL.revokeObjectURL = (url: string) => {
    revoked.push(url)
    revoke.call(URL, url)
  }
  try {
    const app = await open('/mes-courriers/courriers')
    const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' }, slow)
    await within(viewer).findByText('Page 1 sur 3', {}, slow)
    show(1)
    const url = (await within(viewer).findByRole('img', { name: /Page 1 sur 3/ })).getAttribute('src')!
    app.unmount()
    assert.ok(revoked.includes(url), 'the object URL is revoked')
  } finally {
    URL.revokeObjectURL = revoke
  }
})

Images('where the browser draws PDFs, the scan stays embedded and no image is fetched', async () => {
  pdfViewer(true)
  const app = await open('/mes-courriers/courriers')
  const viewer = await screen.findByRole('region', { name: 'Aperçu du courrier' }, slow)
  await within(viewer).findByTitle('Courrier de URSSAF Île-de-France')
  assert.is(viewer.querySelector('figure'), null)
  assert.equal(app.calls.pageLoads, [])
})

Images.run()

const loyer: DocumentSearchResult[] = [
  {
    document: documents[2]!,
    rank: 0.9,
    excerpt: [
      { text: 'Le ', match: false },
      { text: 'loyer', match: true },
      { text: ' du local <b>commercial</b> est dû', match: false },
    ],
  },
  {
    document: documents[0]!,
    rank: 0.4,
    excerpt: [
      { text: 'montant du ', match: false },
      { text: 'loyer', match: true },
    ],
  },
]

const Search = suite('the letters page: search in the text of the letters')
Search.before.each(() => setViewport(1280))
Search.after.each(() => cleanup())

const searchBox = () => screen.getByRole('searchbox', { name: /Rechercher/ })
const type = (value: string) => fireEvent.change(searchBox(), { target: { value } })

Search('from three characters the server is asked once typing pauses; ranked results, the words in <mark>, never as HTML', async () => {
  const app = await open('/mes-courriers/courriers', { mailPipeline: { searches: { loyer } } })
  await screen.findByRole('listbox', { name: 'Courriers' }, slow)
  type('lo')
  type('loy')
  type('loye')
  type('loyer')
  const results = await screen.findByRole('list', { name: 'Courriers contenant « loyer »' })
  assert.equal(app.calls.searches, [{ q: 'loyer', orderId: 2 }], 'one call, once typing paused')
  const items = within(results).getAllByRole('listitem')
  assert.equal(
    items.map((li) => within(li).getByText(/Greffe|URSSAF/).textContent),
    ['Greffe du tribunal', 'URSSAF Île-de-France'],
    'best first',
  )
  const marks = [...results.querySelectorAll('mark')].map((m) => m.textContent)
  assert.equal(marks, ['loyer', 'loyer'])
  assert.match(items[0]!.textContent!, 'Le loyer du local <b>commercial</b> est dû')
  assert.is(results.querySelector('b'), null, 'the excerpt is text, not HTML')
  screen.getByText('2 courriers trouvés')
  assert.is(screen.queryByRole('listbox', { name: 'Courriers' }), null)
})

Search('the search box takes no more than the server accepts', async () => {
  await open('/mes-courriers/courriers')
  await screen.findByRole('listbox', { name: 'Courriers' }, slow)
  const serverLimit = (DocumentSearchQuery.properties.q as { maxLength?: number }).maxLength
  assert.is(serverLimit, 200)
  assert.is(searchBox().getAttribute('maxlength'), String(serverLimit))
})

Search('a result opens its letter (keyboard: a button)', async () => {
  const app = await open('/mes-courriers/courriers', { mailPipeline: { searches: { loyer } } })
  await screen.findByRole('listbox', { name: 'Courriers' }, slow)
  type('loyer')
  const results = await screen.findByRole('list', { name: 'Courriers contenant « loyer »' })
  const greffe = within(results).getAllByRole('button')[0]!
  greffe.focus()
  assert.is(document.activeElement, greffe)
  fireEvent.click(greffe)
  await within(screen.getByRole('region', { name: 'Aperçu du courrier' })).findByRole('heading', { name: 'Greffe du tribunal' })
  await waitFor(() => assert.ok(app.calls.files.includes(24)))
  await waitFor(() => assert.is(greffe.getAttribute('aria-current'), 'true'))
})

Search('nothing found says so with the words typed; back under three characters, the list again', async () => {
  await open('/mes-courriers/courriers')
  await screen.findByRole('listbox', { name: 'Courriers' }, slow)
  type('chaudière')
  await screen.findByText('Aucun courrier ne contient « chaudière »')
  type('ch')
  await screen.findByText('Aucun courrier ne correspond à ces filtres.')
  type('')
  assert.is(within(await screen.findByRole('listbox', { name: 'Courriers' }, slow)).getAllByRole('option').length, 3)
})

Search('a failed search says why; Réessayer asks again', async () => {
  const app = await open('/mes-courriers/courriers', { mailPipeline: { searches: { loyer }, fails: ['search'] } })
  await screen.findByRole('listbox', { name: 'Courriers' }, slow)
  type('loyer')
  await screen.findByText(/momentanément indisponible/)
  screen.getByRole('button', { name: 'Réessayer' }).focus()
  fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }))
  await screen.findByRole('list', { name: 'Courriers contenant « loyer »' })
  assert.is(app.calls.searches.length, 2)
  // The button pressed is gone: the focus goes to the line that counts the results, not to <body>.
  await waitFor(() => assert.is(document.activeElement, screen.getByText(/^\d+ courriers? trouvés?$/)))
})

Search('typing on while a search is under way: the older one is dropped, only the last answer shows', async () => {
  const app = await open('/mes-courriers/courriers', { mailPipeline: { searches: { loyer }, pendingSearches: ['loy'] } })
  await screen.findByRole('listbox', { name: 'Courriers' }, slow)
  type('loy')
  await waitFor(() => assert.equal(app.calls.searches, [{ q: 'loy', orderId: 2 }]))
  await screen.findByText('Recherche dans vos courriers…')
  type('loyer')
  await screen.findByRole('list', { name: 'Courriers contenant « loyer »' })
  assert.equal(
    app.calls.searches.map((s) => s.q),
    ['loy', 'loyer'],
  )
})

Search("the other filters apply to the results, on the letters as they are now; 'Tous' searches every order", async () => {
  const impots = F.letter(25, { sender: 'Impots.gouv', receivedAt: '2026-11-01T09:00:00.000Z' })
  // The search's copy of Greffe says unread; the list, as it is now, says read.
  const withImpots = [
    { ...loyer[0]!, document: { ...documents[2]!, read: false } },
    loyer[1]!,
    { document: impots, rank: 0.2, excerpt: [{ text: 'loyer', match: true }] },
  ]
  const app = await open('/mes-courriers/courriers', {
    defaultOrder: 'all',
    data: { documents: [...documents, impots] },
    mailPipeline: { searches: { loyer: withImpots } },
  })
  await screen.findByRole('listbox', { name: 'Courriers' }, slow)
  // URSSAF, shown first, was opened, so read, before the search answered with it unread.
  await waitFor(() => assert.ok(app.calls.documentUpdates.some((u) => u.documentId === 21 && u.readFlag)))
  type('loyer')
  await screen.findByRole('list', { name: 'Courriers contenant « loyer »' })
  assert.equal(app.calls.searches, [{ q: 'loyer', orderId: null }])
  fireEvent.click(screen.getByRole('checkbox', { name: 'Non lus uniquement' }))
  const results = screen.getByRole('list', { name: 'Courriers contenant « loyer »' })
  // Greffe goes (read now); URSSAF, read too, stays while it is the letter open.
  await waitFor(() =>
    assert.equal(
      within(results)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.sender')!.textContent),
      ['URSSAF Île-de-France', 'Impots.gouv'],
    ),
  )
})

Search(
  'a result follows its letter: opened from the results (so read), it no longer says "non lu"; under « Non lus uniquement » it stays only while open',
  async () => {
    // BNP (read) is the newest, shown first: URSSAF stays unread until opened.
    const app = await open('/mes-courriers/courriers', {
      data: { documents: [{ ...documents[0]!, receivedAt: '2026-11-01T09:00:00.000Z' }, documents[1]!, documents[2]!] },
      mailPipeline: { searches: { loyer } },
    })
    await screen.findByRole('listbox', { name: 'Courriers' }, slow)
    type('loyer')
    const results = await screen.findByRole('list', { name: 'Courriers contenant « loyer »' })
    const urssaf = () => within(screen.getByRole('list', { name: 'Courriers contenant « loyer »' })).getAllByRole('listitem')[1]!
    assert.match(urssaf().textContent!, '· non lu')
    fireEvent.click(within(results).getAllByRole('button')[1]!)
    await waitFor(() => assert.ok(app.calls.documentUpdates.some((u) => u.documentId === 21 && u.readFlag)))
    await screen.findByText('Tous vos courriers sont lus')
    assert.not.match(urssaf().textContent!, 'non lu')
    assert.is(urssaf().querySelector('strong'), null, 'no longer in bold')
    fireEvent.click(screen.getByRole('checkbox', { name: 'Non lus uniquement' }))
    const kept = () => within(screen.getByRole('list', { name: 'Courriers contenant « loyer »' })).getAllByRole('listitem')
    await waitFor(() =>
      assert.equal(
        kept().map((li) => li.querySelector('.sender')!.textContent),
        ['URSSAF Île-de-France'],
        'Greffe (read) goes, URSSAF stays while open',
      ),
    )
    assert.not.match(kept()[0]!.textContent!, 'non lu')
  },
)

Search('on a phone (360 px) the results show and open the letter instead of the list', async () => {
  setViewport(360)
  await open('/mes-courriers/courriers', { mailPipeline: { searches: { loyer } } })
  await screen.findByRole('listbox', { name: 'Courriers' }, slow)
  type('loyer')
  const results = await screen.findByRole('list', { name: 'Courriers contenant « loyer »' })
  fireEvent.click(within(results).getAllByRole('button')[1]!)
  await screen.findByRole('button', { name: '← Retour à la liste' })
  within(screen.getByRole('region', { name: 'Aperçu du courrier' })).getByRole('heading', { name: 'URSSAF Île-de-France' })
})

Search.run()

const deadline = (documentId: number, date: string, amountCents: number | null, sender = 'URSSAF Île-de-France'): LetterDeadline => ({
  documentId,
  orderId: 2,
  sender,
  kind: 'administratif',
  receivedAt: '2026-11-12T09:00:00.000Z',
  date,
  amountCents,
})

const Deadlines = suite('deadlines found in the letters')
Deadlines.before.each(() => setViewport(1280))
Deadlines.after.each(() => cleanup())

Deadlines('in the list and in the viewer: "À traiter avant le …" with the amount', async () => {
  await open('/mes-courriers/courriers')
  const list = await screen.findByRole('listbox', { name: 'Courriers' }, slow)
  const [urssaf, bnp] = within(list).getAllByRole('option')
  assert.match(urssaf!.textContent!, /À traiter avant le 15 février 2027 · 320,00\s€/)
  assert.not.match(bnp!.textContent!, 'À traiter')
  const viewer = screen.getByRole('region', { name: 'Aperçu du courrier' })
  within(viewer).getByText(/^À traiter avant le 15 février 2027 · 320,00\s€$/)
})

Deadlines('the dashboard shows the next three, soonest first, each opening its letter; none past', async () => {
  const deadlines = [
    deadline(21, '2027-03-31', null),
    deadline(24, '2027-01-10', 12000, 'Greffe du tribunal'),
    deadline(30, '2025-01-10', 100, 'Ancien'),
    deadline(31, '2027-02-01', null, 'EDF Entreprises'),
    deadline(32, '2027-06-01', null, 'AXA France'),
  ]
  const app = await open('/tableau-de-bord', { mailPipeline: { deadlines } })
  // The dashboard loads several lists at once: a loaded machine may take a while.
  const list = await screen.findByRole('list', { name: 'Prochaines échéances de vos courriers' }, slow)
  const items = within(list).getAllByRole('listitem')
  assert.equal(
    items.map((li) => li.querySelector('a')!.textContent),
    ['À traiter avant le 10 janvier 2027', 'À traiter avant le 1er février 2027', 'À traiter avant le 31 mars 2027'],
  )
  assert.match(items[0]!.textContent!, /Greffe du tribunal · 120,00\s€/)
  assert.is(items[0]!.querySelector('a')!.getAttribute('href'), '/mes-courriers/courriers?domiciliation=2&courrier=24')
  assert.equal(app.calls.deadlineLoads, [2])
})

Deadlines(
  'the dashboard with none to come in the letters says so, not that nothing is due, and leads to the fiscal calendar; a failure offers Réessayer',
  async () => {
    await open('/tableau-de-bord', { mailPipeline: { deadlines: [deadline(30, '2025-01-10', 100)] } })
    const empty = await screen.findByText('Aucune échéance relevée dans vos courriers.', {}, slow)
    const calendar = within(empty.parentElement!).getByRole('link', { name: 'Voir le calendrier fiscal' })
    assert.is(calendar.getAttribute('href'), '/suivi-comptable/calendrier-fiscal')
    cleanup()
    const app = await open('/tableau-de-bord', { mailPipeline: { deadlines: [deadline(21, '2027-03-31', null)], fails: ['deadlines'] } })
    const card = (await screen.findByRole('heading', { name: 'Prochaines échéances' }, slow)).parentElement!
    await within(card).findByText(
      'Les échéances de vos courriers n’ont pas pu être chargées. Le service est momentanément indisponible. Réessayez dans quelques instants.',
    )
    fireEvent.click(within(card).getByRole('button', { name: 'Réessayer' }))
    await within(card).findByText('À traiter avant le 31 mars 2027')
    assert.equal(app.calls.deadlineLoads, [2, 2])
  },
)

Deadlines('the fiscal calendar lists the letters’ deadlines among its dates, each linking to its letter', async () => {
  const app = await open('/suivi-comptable/calendrier-fiscal', { mailPipeline: { deadlines: [deadline(21, '2027-02-15', 32000)] } })
  const title = await screen.findByText('À traiter : courrier de URSSAF Île-de-France')
  const item = title.closest('li')!
  assert.is(item.querySelector('time')!.getAttribute('datetime'), '2027-02-15')
  assert.match(item.textContent!, /montant : 320,00\s€/)
  const link = within(item).getByRole('link', { name: 'Voir le courrier' })
  assert.is(link.getAttribute('href'), '/mes-courriers/courriers?domiciliation=2&courrier=21')
  // Among the fiscal dates, in order.
  const dates = [...within(screen.getByRole('list', { name: 'Échéances fiscales 2027' })).getAllByRole('listitem')].map(
    (li) => li.querySelector('time')!.getAttribute('datetime')!,
  )
  assert.ok(dates.length > 1 && dates.includes('2027-02-15'))
  assert.equal(dates, [...dates].sort())
  assert.equal(app.calls.deadlineLoads, [2])
})

Deadlines.run()
