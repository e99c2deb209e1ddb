// npm run bench:memory — a benchmark, not a test: does the signed-in SPA keep its memory over a long session? Camille
// (four orders) goes round the portal through its real links and buttons, BENCH_ROUNDS times (default 40) in one
// page load: letters (one opened, the e-mail form opened and cancelled, the letter filed elsewhere and back),
// packages, forwarding requests, folders, the accounting export, subscription, certificate, card, invoices, account,
// collaborators, the company pages, the bell, another order and back, the dashboard. After a warm-up (BENCH_WARMUP rounds, default 5), at
// the end of every round: a forced
// garbage collection (CDP), then the JS heap used, the DOM nodes and the JS event listeners, and a heap snapshot that
// tells the page's own objects from V8's compiled code and Chromium's buffers (which grow for a while whatever the
// page does). A leak (actors not stopped, toasts, React trees, the notifications stream…) shows as a steady growth
// from round to round: the least-squares slope. Writes the « Mémoire sur une longue session » section of
// docs/BENCHMARKS.md (a shortened run leaves it alone). BENCH_SNAPSHOTS=<dir> also writes the snapshots taken after
// the warm-up and at the end, to compare in DevTools (Memory, « Comparison »). BENCH_VIEWPORT=mobile (npm run
// bench:memory:mobile) makes the same rounds on a phone (360 × 740): the drawer opened for every page (a group's pages
// reached through the group's links atop its first page), a letter read and
// left through « ← Retour à la liste », the order changed through the selection screen; its own section.
import { mkdir, writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import { backgroundSettled } from '../test/util/background-settled.ts'
import { machineDescription, median, saveSection } from './bench-report.ts'
import { MOVED_OUT, MOVED_TO_FOLDER } from '../src/machines/mail/mailbox.machine.ts'
import { groupOf } from '../src/views/routes.ts'
import {
  chooseOrder,
  DESKTOP,
  MOBILE,
  networkIdle,
  openMenu,
  pageTitle,
  type Portal,
  signIn,
  startPortal,
  toast,
  waitForPath,
} from '../test/util/e2e.ts'

const DEFAULT_ROUNDS = 40
const ROUNDS = Number(process.env.BENCH_ROUNDS || DEFAULT_ROUNDS)
const WARMUP = Number(process.env.BENCH_WARMUP || 5)
const SNAPSHOTS = process.env.BENCH_SNAPSHOTS
/** On a phone: the side menu is a drawer, the order is changed through the selection screen (MobileNav). */
const PHONE = process.env.BENCH_VIEWPORT === 'mobile'
const VIEWPORT = PHONE ? MOBILE : DESKTOP
const SECTION = PHONE ? 'Mémoire sur une longue session, sur un téléphone' : 'Mémoire sur une longue session'
/** Steady growth of the page's objects over the measured rounds, as a share of their size after the warm-up, above which it is a leak. */
const HEAP_TOLERANCE = 0.05
/** The DOM and its listeners come back to the same count on the same screen: a few of slack for what is in flight. */
const COUNT_TOLERANCE = 0.02

const BOULANGERIE = 'Boulangerie des Lilas SAS'
const STUDIO = 'Studio Nuage SAS'

interface Breakdown {
  code: number
  buffers: number
  page: number
}
interface Sample extends Breakdown {
  round: number
  heap: number
  nodes: number
  listeners: number
  documents: number
  seconds: number
}
type Key = 'heap' | 'page' | 'code' | 'buffers' | 'nodes' | 'listeners'

const menu = (page: Page) => page.getByRole('complementary', { name: 'Menu principal' })
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} Mio`
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} Kio`

/** The page's content has loaded: its title, no spinner left, no request in flight (the bell's stream aside). */
async function shown(page: Page, path: string, title: string) {
  await waitForPath(page, path)
  await pageTitle(page, title).waitFor()
  await page.waitForFunction(() => !document.querySelector('#contenu [role="status"][aria-live]'))
  await networkIdle(page, 150)
}

/**
 * A link of the side menu, as a customer clicks it. On a phone the drawer is opened first, and a group's page is
 * reached through its group's link in the drawer, then the group's links atop the page (SectionNav).
 */
async function go(page: Page, label: string, path: string, title: string) {
  const group = PHONE ? groupOf(path) : undefined
  if (group) {
    const section = page.getByRole('navigation', { name: `${group.label} : sous-rubriques` })
    if (!(await section.count())) {
      await openMenu(page, VIEWPORT)
      await menu(page).getByRole('link', { name: group.label, exact: true }).click()
    }
    await section.getByRole('link', { name: label, exact: true }).click()
    await shown(page, path, title)
    return
  }
  await openMenu(page, VIEWPORT)
  await menu(page).getByRole('link', { name: label, exact: true }).click()
  await shown(page, path, title)
}

/** The header's order picker; on a phone, the order named in the top bar, then the selection screen. */
async function switchOrder(page: Page, company: string) {
  if (PHONE) {
    await page.getByRole('button', { name: /Changer de domiciliation$/ }).click()
    await chooseOrder(page, company)
    await page.getByRole('button', { name: `Domiciliation: ${company}. Changer de domiciliation` }).waitFor()
    await networkIdle(page, 150)
    return
  }
  await page.getByLabel('Domiciliation', { exact: true }).selectOption({ label: company })
  await page.waitForFunction((name) => {
    const select = document.querySelector<HTMLSelectElement>('header select')
    return select?.selectedOptions[0]?.text === name
  }, company)
  await networkIdle(page, 150)
}

/**
 * Mes courriers: a letter opened in the viewer (another one each round), its e-mail form opened and cancelled; with
 * `file`, the letter filed in another folder and put back (two writes that outlive their page, two toasts).
 */
async function letters(page: Page, round: number, file: boolean) {
  await go(page, 'Courriers', '/mes-courriers/courriers', 'Mes courriers')
  const options = page.getByRole('listbox', { name: 'Courriers' }).getByRole('option')
  await options.first().waitFor()
  const letter = options.nth(1 + (round % Math.max(1, (await options.count()) - 1)))
  const sender = (await letter.locator('.sender').textContent())!
  await letter.click()
  const viewer = page.getByRole('region', { name: 'Aperçu du courrier' })
  await viewer.getByTitle(`Courrier de ${sender}`).waitFor()
  await viewer.getByRole('button', { name: 'Envoyer par e-mail' }).click()
  const dialog = page.getByRole('dialog', { name: 'Envoyer par e-mail' })
  await dialog.getByRole('button', { name: 'Annuler' }).click()
  await dialog.waitFor({ state: 'detached' })
  if (file) {
    const folder = viewer.getByLabel('Classer dans un dossier', { exact: true })
    const current = await folder.inputValue()
    const other = await folder
      .locator('option')
      .evaluateAll((all, value) => (all as HTMLOptionElement[]).find((o) => o.value !== value)!.value, current)
    for (const [value, message] of [
      [other, other === '' ? MOVED_OUT : MOVED_TO_FOLDER],
      [current, current === '' ? MOVED_OUT : MOVED_TO_FOLDER],
    ] as const) {
      await folder.selectOption(value)
      await toast(page, message).last().waitFor()
      await page.waitForFunction(
        () => document.querySelector('select[aria-label="Classer dans un dossier"]')?.getAttribute('aria-disabled') === null,
      )
    }
  }
  // On a phone the letter takes the screen: back to the list, as a customer would.
  if (PHONE) {
    await page.getByRole('button', { name: '← Retour à la liste' }).click()
    await options.first().waitFor()
  }
  await networkIdle(page, 150)
}

/** The bell's panel opened and closed. */
async function bell(page: Page) {
  await page.getByRole('button', { name: /^(Notifications|\d+ notifications? non lues?)$/ }).click()
  const panel = page.locator('#notifications')
  await panel.waitFor()
  await panel.getByRole('button', { name: 'Fermer' }).click()
  await panel.waitFor({ state: 'detached' })
}

/** One round: the portal's pages through the menu, another order and back, ending on the dashboard. */
async function round(page: Page, n: number) {
  await letters(page, n, true)
  await go(page, 'Réexpéditions', '/mes-courriers/reexpeditions', 'Réexpéditions')
  await go(page, 'Colis', '/mes-courriers/colis', 'Colis')
  await go(page, 'Mes dossiers', '/mes-courriers/mes-dossiers', 'Mes dossiers')
  await go(page, 'Export comptable', '/mes-courriers/export-comptable', 'Export comptable')
  await go(page, 'Mes réunions', '/mes-reunions', 'Mes réunions')
  await go(page, 'Mes abonnements', '/souscription/mes-abonnements', 'Mes abonnements')
  await go(page, 'Attestation et contrats', '/souscription/attestation-contrats', 'Attestation et contrats')
  await go(page, 'Moyen de paiement', '/moyen-de-paiement', 'Moyen de paiement')
  await go(page, 'Mes factures', '/factures', 'Mes factures')
  await go(page, 'Trésorerie', '/suivi-comptable/tresorerie', 'Trésorerie')
  await go(page, 'Calendrier fiscal', '/suivi-comptable/calendrier-fiscal', 'Calendrier fiscal')
  await go(page, 'Obligations juridiques', '/suivi-comptable/formalite-juridique', 'Obligations juridiques annuelles')
  await go(page, 'Simulateur de TVA', '/suivi-comptable/simulateur-tva', 'Simulateur de TVA')
  // Its own layout, without the header: back through its link to the dashboard.
  await go(page, 'Formalités juridiques', '/formalites-juridique', 'Formalités juridiques')
  await page.getByRole('link', { name: '← Tableau de bord' }).click()
  await shown(page, '/tableau-de-bord', 'Tableau de bord')
  await go(page, 'Formalités', '/formalites', 'Formalités')
  await go(page, 'Informations personnelles', '/informations-personnelles', 'Informations personnelles')
  await go(page, 'Mes collaborateurs', '/mes-collaborateurs', 'Mes collaborateurs')
  await go(page, 'Gestion de mon entreprise', '/gestion-de-mon-entreprise', 'Gestion de mon entreprise')
  await bell(page)
  // Another order (shared with Camille: no collaborators), its letters, then back.
  await switchOrder(page, STUDIO)
  await letters(page, n, false)
  await go(page, 'Tableau de bord', '/tableau-de-bord', 'Tableau de bord')
  await switchOrder(page, BOULANGERIE)
  await page.getByRole('heading', { name: 'Bonjour Camille' }).waitFor()
  await networkIdle(page, 300)
}

/** After a forced collection: the heap, the DOM's counters and what the heap holds (a snapshot's text, for BENCH_SNAPSHOTS). */
async function measure(cdp: CDPSession, n: number, seconds: number): Promise<{ sample: Sample; snapshot: string }> {
  // Twice: what the first collection finalises (weak callbacks, DOM wrappers) is freed by the second.
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = await cdp.send('Runtime.getHeapUsage')
  const counters = await cdp.send('Memory.getDOMCounters')
  const snapshot = await heapSnapshot(cdp)
  return {
    sample: {
      round: n,
      heap: usedSize,
      ...breakdown(snapshot),
      nodes: counters.nodes,
      listeners: counters.jsEventListeners,
      documents: counters.documents,
      seconds,
    },
    snapshot,
  }
}

/** Least-squares slope of the values over the rounds: the growth per round. */
function slope(samples: Sample[], key: Key): number {
  const n = samples.length
  if (n < 2) return 0
  const meanX = samples.reduce((sum, s) => sum + s.round, 0) / n
  const meanY = samples.reduce((sum, s) => sum + s[key], 0) / n
  const covariance = samples.reduce((sum, s) => sum + (s.round - meanX) * (s[key] - meanY), 0)
  const variance = samples.reduce((sum, s) => sum + (s.round - meanX) ** 2, 0)
  return covariance / variance
}

/** The bell's live stream: how many were opened so far, and which are open now. */
function watchStreams(page: Page) {
  const watch = { opened: 0, open: new Set<unknown>() }
  page.on('request', (request) => {
    if (!/\/api-protected\/notifications\/stream$/.test(new URL(request.url()).pathname)) return
    watch.opened++
    watch.open.add(request)
  })
  const done = (request: unknown) => void watch.open.delete(request)
  page.on('requestfinished', done)
  page.on('requestfailed', done)
  return watch
}
interface Streams {
  opened: number
  open: number
}

/** A heap snapshot's text, through CDP's chunks. */
async function heapSnapshot(cdp: CDPSession): Promise<string> {
  const chunks: string[] = []
  const collect = ({ chunk }: { chunk: string }) => void chunks.push(chunk)
  cdp.on('HeapProfiler.addHeapSnapshotChunk', collect)
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
  cdp.off('HeapProfiler.addHeapSnapshotChunk', collect)
  return chunks.join('')
}

// What the JS heap holds besides the page's own objects, by the names a snapshot gives them: V8's compiled code and
// the tables it keeps with it (it compiles more as functions get hot, up to a ceiling), and the buffers Chromium keeps
// whoever the page is (the performance timeline's entries, each buffer capped) or because it is driven through the
// DevTools protocol (the network panel's copies of the responses, the console's messages).
const V8_CODE =
  /^system \/ (WeakArrayList|ProtectedFixedArray|SharedFunctionInfoWrapper|TrustedByteArray|TrustedFixedArray|ProtectedWeakFixedArray|BytecodeWrapper|DeoptimizationData|DeoptimizationLiteralArray)\b/
const BROWSER_BUFFERS =
  /^(blink::NetworkResourcesData|blink::ConsoleMessage|blink::SourceLocation|blink::ScriptTimingInfo|Performance\w*Timing|LayoutShift|LayoutShiftAttribution|LargestContentfulPaint|InteractionContentfulPaint|TaskAttributionTiming|DOMRectReadOnly|blink::HeapVectorBacking<cppgc::internal::BasicMember<blink::(Performance|TaskAttribution|LayoutShift))/

function breakdown(text: string): Breakdown {
  const { snapshot, nodes, strings } = JSON.parse(text) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }
    nodes: number[]
    strings: string[]
  }
  const fields = snapshot.meta.node_fields
  const [types] = snapshot.meta.node_types
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number]
  const totals: Breakdown = { code: 0, buffers: 0, page: 0 }
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt]!]
    const name = strings[nodes[i + nameAt]!]!
    const bucket =
      type === 'code' || (type === 'native' && V8_CODE.test(name))
        ? 'code'
        : type === 'native' && BROWSER_BUFFERS.test(name)
          ? 'buffers'
          : 'page'
    totals[bucket] += nodes[i + sizeAt]!
  }
  return totals
}

async function saveSnapshot(text: string, file: string) {
  await mkdir(SNAPSHOTS!, { recursive: true })
  await writeFile(join(SNAPSHOTS!, file), text)
  console.log(`[bench:memory] instantané du tas : ${join(SNAPSHOTS!, file)}`)
}

interface Figure {
  label: string
  key: Key
  format: (value: number) => string
  step: (value: number) => string
  tolerance?: number
}
const bytes = { format: mb, step: kb }
const count = { format: String, step: (v: number) => v.toFixed(1) }
const FIGURES: Figure[] = [
  { label: 'tas JavaScript utilisé (`Runtime.getHeapUsage`)', key: 'heap', ...bytes },
  { label: 'instantané du tas : objets de la page', key: 'page', ...bytes, tolerance: HEAP_TOLERANCE },
  { label: 'instantané du tas : code compilé par V8 et ses tables', key: 'code', ...bytes },
  { label: 'instantané du tas : tampons de Chromium et de l’inspecteur', key: 'buffers', ...bytes },
  { label: 'nœuds DOM', key: 'nodes', ...count, tolerance: COUNT_TOLERANCE },
  { label: 'écouteurs d’événements JS', key: 'listeners', ...count, tolerance: COUNT_TOLERANCE },
]

function summary(measured: Sample[]) {
  const first = measured[0]!
  const last = measured.at(-1)!
  const span = last.round - first.round
  return FIGURES.map((f) => {
    const perRound = slope(measured, f.key)
    const growth = perRound * span
    const share = growth / first[f.key]
    return {
      ...f,
      start: first[f.key],
      end: last[f.key],
      min: Math.min(...measured.map((s) => s[f.key])),
      max: Math.max(...measured.map((s) => s[f.key])),
      perRound,
      growth,
      share,
      leak: f.tolerance !== undefined && share > f.tolerance,
    }
  })
}

const signed = (value: string, raw: number) => (raw >= 0 ? `+${value}` : value.replace(/^-/, '−'))

const machine = (chromium: string) => machineDescription(`Chromium ${chromium} (Debian)`)

const percent = (share: number) => signed(`${(share * 100).toFixed(1)} %`, share)
const threshold = (r: { tolerance?: number }) => (r.tolerance === undefined ? '—' : `${(r.tolerance * 100).toFixed(0)} %`)

/** More than one stream open at the end: one left behind by a screen, the connection and its actor with it. */
const streamsLeft = (streams: Streams) => streams.open > 1

function verdict(rows: ReturnType<typeof summary>, streams: Streams): string {
  const leaks = [
    ...rows
      .filter((r) => r.leak)
      .map((r) => `${r.label} ${percent(r.share)} sur ${ROUNDS} tours (${signed(r.step(r.perRound), r.perRound)} par tour)`),
    ...(streamsLeft(streams) ? [`${streams.open} flux des notifications ouverts à la fin`] : []),
  ]
  if (leaks.length) return `**Fuite** : ${leaks.join(' ; ')}.`
  const by = (key: Key) => rows.find((r) => r.key === key)!
  return (
    `Verdict : aucune fuite ; sur ${ROUNDS} tours, les objets de la page ${percent(by('page').share)} (${signed(by('page').step(by('page').perRound), by('page').perRound)} par tour), ` +
    `les nœuds DOM ${percent(by('nodes').share)}, les écouteurs ${percent(by('listeners').share)}, ${streams.open} flux des notifications ouvert à la fin ; le tas entier ${percent(by('heap').share)}.`
  )
}

function markdown(
  measured: Sample[],
  rows: ReturnType<typeof summary>,
  streams: Streams,
  context: { machine: string; loadStart: string; loadEnd: string; waited: number; roundSeconds: number },
): string {
  return [
    `## ${SECTION}`,
    '',
    `Mesuré par \`npm run bench:memory${PHONE ? ':mobile' : ''}\` le ${new Date().toISOString().slice(0, 10)} sur la construction de production (\`dist/\`) servie par le serveur réel (PGlite, données de démonstration, une fois finies les tâches de fond de ses courriers : ${context.waited} s d’attente), dans Chromium (${VIEWPORT.width} × ${VIEWPORT.height}${PHONE ? ', la mise en page du téléphone' : ''}) piloté par playwright-core.`,
    '',
    `Machine : ${context.machine} ; charge moyenne (1 / 5 / 15 min) au départ : ${context.loadStart}, à la fin : ${context.loadEnd}. Machine partagée : les durées varient d’une exécution à l’autre ; les tailles, bien moins.`,
    '',
    `Parcours : Camille (\`demo@example.com\`, quatre domiciliations) se connecte une fois, choisit la Boulangerie des Lilas SAS, puis fait ${WARMUP + ROUNDS} tours sans jamais recharger la page, ` +
      `chacun par les vrais liens du menu${PHONE ? ' (le tiroir ouvert par « Ouvrir le menu » avant chaque page, les pages d’une rubrique atteintes par ses liens en haut de la page)' : ''} et les vrais boutons : Courriers (un courrier ouvert dans l’aperçu, un autre à chaque tour, son envoi par e-mail ouvert puis annulé, le courrier classé dans un autre dossier puis remis : deux écritures et deux toasts${PHONE ? ' ; puis « ← Retour à la liste »' : ''}), Réexpéditions, Colis, Mes dossiers, Export comptable, Mes réunions, ` +
      'Mes abonnements, Attestation et contrats, Moyen de paiement, Mes factures, Trésorerie, Calendrier fiscal, Obligations juridiques, Simulateur de TVA, Formalités juridiques (sa propre mise en page, quittée par son lien « ← Tableau de bord »), Formalités, Informations personnelles, Mes collaborateurs, Gestion de mon entreprise, ' +
      `la cloche ouverte et fermée, puis Studio Nuage SAS choisie ${PHONE ? 'par la domiciliation nommée dans la barre du haut et l’écran de sélection' : 'dans le sélecteur de l’en-tête'} (ses courriers, un ouvert), le tableau de bord, et retour à la Boulangerie. ` +
      `Un tour dure ≈ ${context.roundSeconds.toFixed(1)} s (médiane). Les ${WARMUP} premiers tours sont l’échauffement (code chargé, caches remplis) ; ` +
      `à la fin de chacun des ${ROUNDS} tours suivants, sur le tableau de bord : deux ramasse-miettes forcés (\`HeapProfiler.collectGarbage\`), puis le tas JavaScript utilisé (\`Runtime.getHeapUsage\`), ` +
      'les nœuds DOM et les écouteurs d’événements JS (`Memory.getDOMCounters`), et un instantané du tas (`HeapProfiler.takeHeapSnapshot`, les objets de V8 et ceux de Blink, d’où un total plus grand que le tas de V8 seul) dont la taille propre de chaque objet est rangée en trois parts : ' +
      'le code compilé par V8 et ses tables (il en compile davantage à mesure que des fonctions deviennent chaudes, jusqu’à un plafond), les tampons que Chromium garde quelle que soit la page ' +
      '(entrées de la chronologie des performances, chaque tampon plafonné) ou parce qu’il est piloté par le protocole DevTools (copies des réponses pour le panneau Réseau, messages de la console), et le reste : les objets de la page.',
    '',
    '| mesure | après l’échauffement | à la fin | plus bas–plus haut | pente (moindres carrés) par tour | hausse sur les tours mesurés | seuil de fuite |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.format(r.start)} | ${r.format(r.end)} | ${r.format(r.min)}–${r.format(r.max)} | ${signed(r.step(r.perRound), r.perRound)} | ${percent(r.share)} | ${threshold(r)} |`,
    ),
    '',
    `Flux des notifications (la cloche, une requête gardée ouverte) : ${streams.opened} ouvert${streams.opened > 1 ? 's' : ''} pendant les tours mesurés, ${streams.open} ouvert${streams.open > 1 ? 's' : ''} à la fin (${PHONE ? 'trois par tour attendus : Formalités juridiques n’a pas d’en-tête, et sur un téléphone l’écran de sélection, ouvert deux fois par tour, remplace la mise en page ; la cloche s’y démonte avec son flux, rouvert au retour' : 'un par tour attendu : Formalités juridiques n’a pas d’en-tête, la cloche s’y démonte avec son flux, rouvert au retour'}).`,
    '',
    'Chaque tour mesuré (tour : tas entier, objets de la page, nœuds, écouteurs) :',
    '',
    measured.map((s) => `${s.round} : ${mb(s.heap)}, ${mb(s.page)}, ${s.nodes}, ${s.listeners}`).join(' ; ') + '.',
    '',
    'Lecture : la « hausse » est la pente multipliée par le nombre de tours mesurés, rapportée à la valeur d’après l’échauffement ; une fuite (acteur jamais arrêté, arbre React ou nœuds détachés gardés, toasts, flux des notifications…) ' +
      'se voit comme une pente des objets de la page qui ne retombe pas d’un tour à l’autre. Les nœuds et les écouteurs, comptés sur le même écran après un ramasse-miettes, n’ont pas de raison de croître. ' +
      'Le code compilé monte pendant les premiers tours puis plafonne (V8 jette aussi le code des fonctions qui ne servent plus) ; les tampons, eux, croissent à chaque requête tant que la page est pilotée par le protocole DevTools ' +
      '(l’essentiel : une fiche `NetworkResourcesData` par requête, que Chromium garde pour l’inspecteur depuis que Playwright a activé son domaine Network, sans navigation pour les effacer dans une application d’une seule page) ' +
      'et n’existent pas dans le navigateur d’une cliente. Ni l’un ni l’autre n’entre dans le verdict.',
    '',
    verdict(rows, streams),
    '',
  ].join('\n')
}

/** Replaces the section in docs/BENCHMARKS.md, or adds it before the history; the other sections are left as they are. */

console.log('[bench:memory] serveur et Chromium…')
let portal: Portal | undefined
let failed = false
try {
  // The demo letters prepared (their images and text), as a customer's portal has them: a plain portal leaves their jobs queued.
  portal = await startPortal({ prepared: true })
  const waited = await backgroundSettled(portal.server.deps.db, {
    timeoutMs: 180_000,
    onWait: (left) => console.log(`[bench:memory] tâches de fond en cours (${left}) : la mesure attend`),
  })
  const loadStart = loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')
  const tab = await portal.open({ viewport: VIEWPORT })
  const { page } = tab
  const cdp = await tab.context.newCDPSession(page)
  const watch = watchStreams(page)
  let openedBefore = 0
  await signIn(page)
  await page.getByRole('heading', { name: 'Sélectionnez la domiciliation' }).waitFor()
  await page.getByRole('button', { name: BOULANGERIE }).click()
  await shown(page, '/tableau-de-bord', 'Tableau de bord')

  const measured: Sample[] = []
  const durations: number[] = []
  for (let n = 1; n <= WARMUP + ROUNDS; n++) {
    const started = performance.now()
    await round(page, n)
    const seconds = (performance.now() - started) / 1000
    durations.push(seconds)
    if (n <= WARMUP) {
      console.log(`[bench:memory] échauffement ${n}/${WARMUP} (${seconds.toFixed(1)} s)`)
      openedBefore = watch.opened
      continue
    }
    const { sample, snapshot } = await measure(cdp, n - WARMUP, seconds)
    measured.push(sample)
    console.log(
      `[bench:memory] tour ${sample.round}/${ROUNDS} : tas ${mb(sample.heap)} (page ${mb(sample.page)}, code ${mb(sample.code)}, tampons ${mb(sample.buffers)}), ` +
        `${sample.nodes} nœuds, ${sample.listeners} écouteurs, ${sample.documents} documents, ${watch.open.size} flux ouvert(s) (${seconds.toFixed(1)} s)`,
    )
    if (SNAPSHOTS && (sample.round === 1 || sample.round === ROUNDS))
      await saveSnapshot(snapshot, sample.round === 1 ? 'apres-echauffement.heapsnapshot' : 'fin.heapsnapshot')
  }
  const streams: Streams = { opened: watch.opened - openedBefore, open: watch.open.size }
  await cdp.detach()
  await tab.close() // fails on any console error, uncaught error or CSP violation seen during the session

  const rows = summary(measured)
  for (const r of rows) {
    console.log(
      `[bench:memory] ${r.label} : ${r.format(r.start)} après l’échauffement, ${r.format(r.end)} à la fin, pente ${signed(r.step(r.perRound), r.perRound)} par tour, ` +
        `${percent(r.share)} sur ${ROUNDS} tours (seuil ${threshold(r)})${r.leak ? ' : FUITE' : ''}`,
    )
  }
  console.log(
    `[bench:memory] flux des notifications : ${streams.opened} ouvert(s) pendant les tours mesurés, ${streams.open} ouvert(s) à la fin${streamsLeft(streams) ? ' : FUITE' : ''}`,
  )
  const section = markdown(measured, rows, streams, {
    machine: machine(portal.browser.version()),
    loadStart,
    loadEnd: loadavg()
      .map((l) => l.toFixed(2))
      .join(' / '),
    waited,
    roundSeconds: median(durations),
  })
  console.log(section)
  failed = rows.some((r) => r.leak) || streamsLeft(streams)
  if (ROUNDS >= DEFAULT_ROUNDS) {
    await saveSection(SECTION, section, { before: 'Historique' })
    console.log(`[bench:memory] docs/BENCHMARKS.md mis à jour (section « ${SECTION} »)`)
  } else {
    console.log(`[bench:memory] tours réduits (${ROUNDS} < ${DEFAULT_ROUNDS}) : docs/BENCHMARKS.md n’est pas modifié`)
  }
} catch (error) {
  failed = true
  console.error('[bench:memory] ÉCHEC :', error instanceof Error ? error.message : error)
} finally {
  await portal?.close()
}
process.exit(failed ? 1 : 0)
