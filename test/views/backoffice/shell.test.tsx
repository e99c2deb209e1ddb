// The back office's shell in happy-dom: the menu holds only the pages the operator's roles open (built from the pages'
// table), a page of another role says « Accès réservé », an unknown path « Page introuvable »; the dashboard's queues.
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { OPERATOR_ROLES } from '../../../server/contract/route-def.ts'
import { ROLES } from '../../../server/contract/rules/backoffice.ts'
import type { Queue } from '../../../src/backoffice/machines/dashboard/queues.machine.ts'
import { ageText } from '../../../src/backoffice/views/pages/dashboard/DashboardPage.tsx'
import { backOfficePages, menuFor, pageFor } from '../../../src/backoffice/views/routes.ts'
import { apiError, hugo, ines, renderBackOffice } from '../../util/backoffice.tsx'
import { ADMIN_MENU } from '../../util/backoffice-menus.ts'

const menuLabels = () =>
  within(screen.getByRole('navigation', { name: 'Menu du back-office' }))
    .getAllByRole('link')
    .map((a) => a.textContent)

const Shell = suite('back office: the shell and its menu')
Shell.after.each(() => cleanup())

Shell('the menu is the table of pages filtered by role: an administrator sees Administration, a courrier operator does not', async () => {
  await renderBackOffice('/operateur', { signedIn: ines })
  await screen.findByRole('heading', { name: 'Tableau de bord', level: 1 })
  assert.equal(menuLabels(), ADMIN_MENU)
  cleanup()
  await renderBackOffice('/operateur', { signedIn: hugo })
  await screen.findByRole('heading', { name: 'Tableau de bord', level: 1 })
  assert.equal(menuLabels(), ['Tableau de bord', 'Clients', 'Numérisation', 'Colis', 'Réexpéditions', 'Mes clés d’accès'])
  assert.match(screen.getByRole('banner').textContent!, 'Hugo Lemaire (Courrier)')
})

Shell('a page of another role: « Accès réservé » in French, with the role it needs, and no call of its own', async () => {
  const app = await renderBackOffice('/operateur/administration/cles-api', { signedIn: hugo })
  await screen.findByRole('heading', { name: 'Accès réservé', level: 1 })
  assert.match(screen.getByRole('alert').textContent!, 'réservée aux opérateurs ayant le rôle « Administrateur »')
  assert.equal(app.called('getApiKeys'), [])
  assert.is(document.title, 'Accès réservé · Back-office Domicilium')
})

Shell('an unknown path of the back office: « Page introuvable » in the shell', async () => {
  await renderBackOffice('/operateur/nulle-part', { signedIn: ines })
  await screen.findByRole('heading', { name: 'Page introuvable', level: 1 })
  screen.getByRole('link', { name: 'Revenir au tableau de bord' })
})

Shell('the current page is marked in the menu, and following an entry opens its page', async () => {
  const app = await renderBackOffice('/operateur', { signedIn: ines })
  await screen.findByRole('heading', { name: 'Tableau de bord', level: 1 })
  const menu = () => within(screen.getByRole('navigation', { name: 'Menu du back-office' }))
  assert.is(menu().getByRole('link', { name: 'Tableau de bord' }).getAttribute('aria-current'), 'page')
  fireEvent.click(menu().getByRole('link', { name: 'Administration' }))
  await screen.findByRole('heading', { name: 'Administration', level: 1 })
  assert.is(app.path(), '/operateur/administration')
  assert.is(menu().getByRole('link', { name: 'Administration' }).getAttribute('aria-current'), 'page')
  // A skip link to the content comes first, for the keyboard.
  assert.is(document.querySelector('a')!.textContent, 'Aller au contenu')
})

const Table = suite('back office: the table of pages')
Table('every page is under /operateur, at most one entry per menu position; nested pages answer the paths below them', () => {
  for (const page of backOfficePages) assert.ok(page.path === '/operateur' || page.path.startsWith('/operateur/'), page.path)
  const positions = backOfficePages.flatMap((p) => (p.menu ? [p.menu.position] : []))
  assert.is(new Set(positions).size, positions.length)
  assert.is(pageFor('/operateur/administration/journal')?.title, 'Administration')
  assert.is(pageFor('/operateur/administration/')?.title, 'Administration')
  assert.is(pageFor('/operateur/x'), undefined)
  assert.equal(
    menuFor(['conformite']).map((m) => m.label),
    ['Tableau de bord', 'Clients', 'Justificatifs', 'Messages', 'Formalités juridiques', 'Résiliations', 'Mes clés d’accès'],
  )
  // The roles the forms list are the contract's.
  assert.equal(ROLES, [...OPERATOR_ROLES])
})

const Dashboard = suite('back office: the dashboard')
Dashboard.after.each(() => cleanup())

const queue = (extra: Partial<Queue> & Pick<Queue, 'id' | 'label' | 'path'>): Queue => ({
  count: 0,
  oldestAt: null,
  oldestAgeMinutes: null,
  target: null,
  dueAt: null,
  late: false,
  ...extra,
})
const queues: Queue[] = [
  queue({
    id: 'justificatifs',
    label: 'Justificatifs',
    path: '/operateur/justificatifs',
    count: 4,
    oldestAt: '2026-11-17T08:00:00.000Z',
    oldestAgeMinutes: 3 * 24 * 60 + 120,
    target: '48 h',
    dueAt: '2026-11-19T08:00:00.000Z',
    late: true,
  }),
  queue({ id: 'numerisation', label: 'Numérisation', path: '/operateur/numerisation', target: 'le jour même' }),
  queue({
    id: 'resiliations',
    label: 'Résiliations',
    path: '/operateur/resiliations',
    count: 2,
    oldestAt: '2026-11-20T08:25:00.000Z',
    oldestAgeMinutes: 95,
  }),
]
const dashboard = (list: Queue[]) => ({ at: '2026-11-20T10:00:00.000Z', queues: list })

Dashboard(
  'each queue the server counts: its count, the age of the oldest, its target, late ones said so, each a link to its page',
  async () => {
    const app = await renderBackOffice('/operateur', { signedIn: ines, answers: { getDashboard: [dashboard(queues)] } })
    const section = await screen.findByRole('region', { name: 'Files d’attente' })
    const links = await within(section).findAllByRole('link')
    assert.equal(
      links.map((a) => [a.getAttribute('href'), a.textContent]),
      [
        ['/operateur/justificatifs', '4JustificatifsLe plus ancien attend depuis 3 j 2 h : en retardObjectif : 48 h'],
        ['/operateur/numerisation', '0NumérisationRien en attenteObjectif : le jour même'],
        ['/operateur/resiliations', '2RésiliationsLe plus ancien attend depuis 1 h'],
      ],
    )
    screen.getByText('Bonjour Inès.')
    assert.equal(app.called('getDashboard'), [[]])
  },
)

Dashboard('the queues failing to load: said, with « Réessayer »', async () => {
  const app = await renderBackOffice('/operateur', {
    signedIn: ines,
    answers: {
      getDashboard: [apiError(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.'), dashboard([])],
    },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Réessayer' }))
  await screen.findByText('Aucune file d’attente pour vos rôles.')
  assert.is(app.called('getDashboard').length, 2)
})

Dashboard('the operator’s pages are offered as shortcuts (Administration for an administrator)', async () => {
  await renderBackOffice('/operateur', { signedIn: ines })
  const spaces = await screen.findByRole('region', { name: 'Vos espaces' })
  assert.equal(
    within(spaces)
      .getAllByRole('link')
      .map((a) => a.textContent),
    ADMIN_MENU.slice(1), // all but the dashboard itself
  )
})

Dashboard('ages: minutes, hours, days and hours', () => {
  assert.equal([ageText(12), ageText(60), ageText(299), ageText(24 * 60), ageText(50 * 60)], ['12 min', '1 h', '4 h', '1 j', '2 j 2 h'])
})

Shell.run()
Table.run()
Dashboard.run()
