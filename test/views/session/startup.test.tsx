// Issue 13: signing in reaches the dashboard without a Suspense fallback in between once the form has
// been used (the signed-in code is fetched then), so that the reveal never waits for React's Suspense
// throttle. Counted, not timed: budgets live in bench:web and scripts/size.mjs.
import '../../util/dom.ts'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { Suspense, use } from 'react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { CODE_LOADING_LABEL } from '../../../src/views/components/ui.tsx'
import { preloadable } from '../../../src/views/components/preloadable.ts'
import { forgetPainted, screenShown, whenPainted } from '../../../src/views/painted.ts'
import { DASHBOARD_AREAS, DashboardLayout, preloadSignedIn } from '../../../src/views/signedIn.ts'
import { FLOW_AREAS, type FlowArea } from '../../../src/wiring/flows.ts'
import { type AppServices, createServices } from '../../../src/wiring/services.ts'
import { tracked } from '../../../src/wiring/settled.ts'
import * as F from '../../util/fixtures.ts'
import { renderApp } from '../../util/services.tsx'

/** Every time a Suspense boundary's fallback (the code-loading spinner) enters the page. */
function countFallbacks() {
  let count = 0
  const observer = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node.textContent?.includes(CODE_LOADING_LABEL)) count++
  })
  observer.observe(document.body, { childList: true, subtree: true })
  return { count: () => (observer.takeRecords().length, count), stop: () => observer.disconnect() }
}

/** As main.tsx loads it. */
const firstScreen = () => import('../../../src/signed-in-first-screen.ts')

const Startup = suite('login → dashboard without a Suspense reveal')
Startup.after.each(() => cleanup())

Startup('using the form fetches the signed-in code; signing in then shows the dashboard without a fallback', async () => {
  const app = await renderApp('/login', { orders: [F.atelier] })
  const email = await screen.findByLabelText('Adresse e-mail')
  fireEvent.focus(email)
  fireEvent.input(email, { target: { value: 'demo@example.com' } })
  fireEvent.input(screen.getByLabelText('Mot de passe'), { target: { value: 'Demo1234!' } })
  await waitFor(() =>
    assert.ok(DashboardLayout.isLoaded(), 'the dashboard layout and page (one module with it) are fetched while the form is used'),
  )
  const fallbacks = countFallbacks()
  fireEvent.click(screen.getByRole('button', { name: 'Se connecter', exact: true } as never))
  await screen.findByRole('heading', { name: 'Bonjour Camille' })
  assert.is(fallbacks.count(), 0, 'no Suspense fallback between the click and the greeting')
  fallbacks.stop()
  assert.equal(app.calls.early, [[F.authUser.apiToken, 'dashboard']], 'the startup’s first calls sent as the login answered, once')
})

Startup(
  'a preloaded component renders at once; a component whose code is not there shows the fallback (what the count above detects)',
  async () => {
    const Preloaded = preloadable(async () => ({ default: () => <p>prêt</p> }))
    const NotLoaded = preloadable(async () => ({ default: () => <p>arrivé</p> }))
    await Preloaded.preload()
    const fallbacks = countFallbacks()
    await act(async () => {
      render(
        <Suspense fallback={<p>{CODE_LOADING_LABEL}</p>}>
          <Preloaded />
        </Suspense>,
      )
    })
    assert.is(fallbacks.count(), 0)
    await act(async () => {
      render(
        <Suspense fallback={<p>{CODE_LOADING_LABEL}</p>}>
          <NotLoaded />
        </Suspense>,
      )
    })
    await screen.findByText('arrivé')
    assert.is(fallbacks.count(), 1)
    fallbacks.stop()
  },
)

Startup('the services’ loaders settle with status and value, so that use() reads them without suspending', async () => {
  localStorage.clear() // signed out: the real session makes no call
  const services = createServices({ navigate: () => {}, notify: () => {}, firstScreen })
  const session = await services.loadSession()
  const mail = await services.loadFlows('mail')
  assert.is(services.loadSession(), services.loadSession(), 'loaded once')
  assert.is(services.loadFlows('mail'), services.loadFlows('mail'), 'an area loaded once')
  assert.equal(
    [(services.loadSession() as { status?: string }).status, (services.loadFlows('mail') as { status?: string }).status],
    ['fulfilled', 'fulfilled'],
  )
  // biome-ignore lint/correctness/noComponentHookFactories: rendered once, it reads this test's services
  function Reader() {
    const s = use(services.loadSession())
    const f = use(services.loadFlows('mail'))
    return <p>{s === session && f === mail ? 'lu sans attendre' : 'autre'}</p>
  }
  const fallbacks = countFallbacks()
  await act(async () => {
    render(
      <Suspense fallback={<p>{CODE_LOADING_LABEL}</p>}>
        <Reader />
      </Suspense>,
    )
  })
  screen.getByText('lu sans attendre')
  assert.is(fallbacks.count(), 0)
  fallbacks.stop()
  session.stop()
})

Startup('each area’s flows load on their own: an area gives its own flows only; the first screen’s are the dashboard’s', async () => {
  localStorage.clear()
  const services = createServices({ navigate: () => {}, notify: () => {}, firstScreen })
  const mail = await services.loadFlows('mail')
  assert.ok('mailbox' in mail)
  assert.not.ok('unpaidInvoices' in mail || 'problemReport' in mail || 'notifications' in mail, 'the mail area gives only its own flows')
  const billing = await services.loadFlows('billing')
  assert.ok('invoiceBook' in billing)
  assert.not.ok('mailbox' in billing)
  const dashboard = await services.loadFlows('firstScreen')
  assert.equal(Object.keys(dashboard).sort(), ['kbisUpload', 'letterDeadlines', 'problemReport', 'unpaidInvoices'])
  assert.not.ok(
    ['kbisUpload', 'letterDeadlines', 'problemReport', 'unpaidInvoices'].some((flow) => flow in mail || flow in billing),
    'each flow is provided once',
  )
})

Startup(
  'preloadSignedIn waits for the first screen’s flows only; the other areas’ come once a signed-in screen has painted and the page is idle',
  async () => {
    forgetPainted()
    const asked: FlowArea[] = []
    const services: AppServices = {
      navigate: () => {},
      notify: () => {},
      loadSession: () => Promise.resolve({}) as never,
      // The dashboard's areas answer; the others never do: preloadSignedIn must not wait for them.
      loadFlows: (area) => {
        asked.push(area)
        return (DASHBOARD_AREAS.includes(area) ? Promise.resolve({}) : new Promise(() => {})) as never
      },
    }
    await Promise.race([
      preloadSignedIn(services),
      new Promise((_, reject) => setTimeout(() => reject(new Error('it waited for an area the dashboard does not show')), 1000)),
    ])
    assert.equal([...asked].sort(), [...DASHBOARD_AREAS].sort(), 'first the dashboard’s flows, and only them')
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.equal([...asked].sort(), [...DASHBOARD_AREAS].sort(), 'nothing more before a signed-in screen has painted')
    screenShown(true)
    await waitFor(() => assert.equal([...asked].sort(), [...FLOW_AREAS].sort(), 'then every other area'), { timeout: 2000 })
  },
)

Startup(
  'the first signed-in screen reads the flows preloadSignedIn waits for, no other (else it would suspend on its first render); the bell’s come once it has painted',
  async () => {
    forgetPainted()
    // The calls' record from before the first render: the dashboard, its page now in the layout's code, may paint before
    // renderApp has returned.
    let flowAreas: FlowArea[] = []
    const readWhenPainted: FlowArea[][] = []
    whenPainted('signedIn', () => readWhenPainted.push([...flowAreas]))
    const app = await renderApp('/tableau-de-bord', {
      signedIn: true,
      defaultOrder: 2,
      onCalls: (calls) => {
        flowAreas = calls.flowAreas
      },
    })
    await screen.findByRole('heading', { name: 'Courriers non lus' })
    await waitFor(() => assert.is(readWhenPainted.length, 1))
    assert.equal(readWhenPainted[0]!.sort(), [...DASHBOARD_AREAS].sort())
    // Its place kept meanwhile, then the bell itself.
    await screen.findByRole('button', { name: 'Notifications' })
    assert.ok(app.calls.flowAreas.includes('notifications'))
    cleanup()
  },
)

Startup('tracked(): a rejected load carries its reason', async () => {
  const failed = tracked(Promise.reject(new Error('hors ligne')))
  await failed.catch(() => {})
  assert.is(failed.status, 'rejected')
  assert.is((failed.reason as Error).message, 'hors ligne')
})

Startup('the dashboard’s lists and unpaid banner appear together once answered, so that nothing below the greeting jumps', async () => {
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2, pending: ['packages'] })
  await screen.findByRole('heading', { name: 'Bonjour Camille' })
  await screen.findByText('Chargement : vos courriers, colis, demandes et factures…')
  assert.is(screen.queryByRole('heading', { name: 'Courriers non lus' }), null, 'the letters wait for the packages')
  cleanup()
  await renderApp('/tableau-de-bord', { signedIn: true, defaultOrder: 2, unpaid: { hasUnpaid: true, count: 1, amountInclTaxCents: 3480 } })
  await screen.findByRole('heading', { name: 'Courriers non lus' })
  screen.getByRole('region', { name: 'Factures impayées' })
  assert.is(screen.queryByText('Chargement : vos courriers, colis, demandes et factures…'), null)
})

Startup.run()
