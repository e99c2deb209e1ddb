// /operateur/administration in happy-dom: Opérateurs (invite with the link shown once, roles, deactivate after a
// confirmation), Clés d’API (created and shown once with « Copier », revoked after a confirmation), Journal (filters,
// pages, CSV); each list's loading, empty and error states.
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { ApiKeySummary, JournalEntry } from '../../../server/contract/operators.ts'
import { keyRevoked } from '../../../src/backoffice/machines/operators/apiKeys.machine.ts'
import { deactivated, rolesSaved } from '../../../src/backoffice/machines/operators/operatorDirectory.machine.ts'
import { NAME_NEEDED } from '../../../src/backoffice/views/pages/operators/ApiKeysSection.tsx'
import { COPIED } from '../../../src/backoffice/views/pages/operators/CopyButton.tsx'
import { NO_ROLE } from '../../../src/backoffice/views/pages/operators/OperatorsSection.tsx'
import { apiError, hugo, ines, renderBackOffice, summary } from '../../util/backoffice.tsx'

const down = apiError(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const type = (label: string, value: string, root: HTMLElement = document.body) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } })
const dialog = () => screen.findByRole('dialog')

const Operators = suite('back office: Administration › Opérateurs')
Operators.after.each(() => cleanup())

Operators('the list: who, their state and roles; no « Désactiver » for oneself', async () => {
  await renderBackOffice('/operateur/administration', {
    signedIn: ines,
    operators: [
      summary(ines),
      summary(hugo),
      summary({ id: 3, email: 'lea@example.com', name: 'Léa Fontaine', roles: ['conformite'] }, { enrolled: false }),
    ],
  })
  const table = await screen.findByRole('table')
  const rows = within(table).getAllByRole('row').slice(1)
  assert.equal(
    rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent),
    ['Actif', 'Actif', 'Invité, inscription à faire'],
  )
  assert.equal(
    screen.getAllByRole('button', { name: /^Désactiver/ }).map((b) => b.getAttribute('aria-label')),
    ['Désactiver Hugo Lemaire', 'Désactiver Léa Fontaine'],
  )
})

Operators('invite: checked here first, then the single-use link shown once, and the new operator in the list', async () => {
  const lea = summary({ id: 3, email: 'lea@example.com', name: 'Léa Fontaine', roles: ['courrier', 'conformite'] }, { enrolled: false })
  const link = 'http://localhost:8080/operateur/inscription/tok_lea'
  const app = await renderBackOffice('/operateur/administration', {
    signedIn: ines,
    answers: { inviteOperator: [{ operator: lea, enrolmentUrl: link, enrolmentExpiresAt: '2026-11-27T10:00:00.000Z' }] },
  })
  const form = await screen.findByRole('region', { name: 'Inviter un opérateur' })
  fireEvent.click(within(form).getByRole('button', { name: 'Inviter' }))
  await within(form).findByText(NO_ROLE)
  within(form).getByText('Saisissez une adresse e-mail valide.')
  assert.equal(app.called('inviteOperator'), [])
  type('Adresse e-mail', 'lea@example.com', form)
  type('Nom', 'Léa Fontaine', form)
  fireEvent.click(within(form).getByLabelText('Conformité'))
  fireEvent.click(within(form).getByLabelText('Courrier'))
  fireEvent.click(within(form).getByRole('button', { name: 'Inviter' }))
  const shown = await dialog()
  // The roles in the contract's order, whatever order they were ticked in.
  assert.equal(app.called('inviteOperator'), [[{ email: 'lea@example.com', name: 'Léa Fontaine', roles: ['courrier', 'conformite'] }]])
  assert.match(shown.textContent!, link)
  assert.match(shown.textContent!, 'ne sera plus affiché')
  await screen.findByRole('cell', { name: /^Léa Fontaine/ })
  fireEvent.click(within(shown).getByRole('button', { name: 'J’ai transmis le lien' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  assert.not.match(document.body.textContent!, link, 'gone for good')
  assert.is((within(form).getByLabelText('Adresse e-mail') as HTMLInputElement).value, '')
})

Operators('an invitation refused keeps what was typed and says why', async () => {
  await renderBackOffice('/operateur/administration', {
    signedIn: ines,
    answers: { inviteOperator: [apiError(409, 'Cette adresse est déjà celle d’un opérateur.')] },
  })
  const form = await screen.findByRole('region', { name: 'Inviter un opérateur' })
  type('Adresse e-mail', 'courrier@example.com', form)
  type('Nom', 'Hugo', form)
  fireEvent.click(within(form).getByLabelText('Courrier'))
  fireEvent.click(within(form).getByRole('button', { name: 'Inviter' }))
  await within(form).findByText('Cette adresse est déjà celle d’un opérateur.')
  assert.is((within(form).getByLabelText('Adresse e-mail') as HTMLInputElement).value, 'courrier@example.com')
})

Operators('roles changed in place; a refusal said beside the list', async () => {
  const app = await renderBackOffice('/operateur/administration', {
    signedIn: ines,
    answers: {
      setOperatorRoles: [
        summary({ ...hugo, roles: ['courrier', 'conformite'] }),
        apiError(409, 'Vous ne pouvez pas retirer votre propre rôle « Administrateur ».'),
      ],
    },
  })
  const hugoRoles = await screen.findByRole('group', { name: 'Rôles de Hugo Lemaire' })
  const save = within(hugoRoles.closest('form')!).getByRole('button', { name: 'Enregistrer les rôles' }) as HTMLButtonElement
  assert.ok(save.disabled, 'nothing changed yet')
  fireEvent.click(within(hugoRoles).getByLabelText('Conformité'))
  fireEvent.click(save)
  await waitFor(() => assert.equal(app.notices, [{ kind: 'success', message: rolesSaved('Hugo Lemaire') }]))
  assert.equal(app.called('setOperatorRoles'), [[2, { roles: ['courrier', 'conformite'] }]])
  const mine = screen.getByRole('group', { name: 'Rôles de Inès Garnier' })
  fireEvent.click(within(mine).getByLabelText('Courrier'))
  fireEvent.click(within(mine.closest('form')!).getByRole('button', { name: 'Enregistrer les rôles' }))
  await screen.findByText('Vous ne pouvez pas retirer votre propre rôle « Administrateur ».')
})

Operators('deactivate only after the confirmation; « Annuler » sends nothing', async () => {
  const app = await renderBackOffice('/operateur/administration', {
    signedIn: ines,
    answers: { deactivateOperator: [summary(hugo, { active: false, deactivatedAt: '2026-11-20T10:00:00.000Z' })] },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Désactiver Hugo Lemaire' }))
  fireEvent.click(within(await dialog()).getByRole('button', { name: 'Annuler' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  assert.equal(app.called('deactivateOperator'), [])
  fireEvent.click(screen.getByRole('button', { name: 'Désactiver Hugo Lemaire' }))
  const confirm = await dialog()
  assert.match(confirm.textContent!, 'ses sessions ouvertes sont fermées')
  fireEvent.click(within(confirm).getByRole('button', { name: 'Désactiver' }))
  await screen.findByText(/^Désactivé le/)
  assert.equal(app.called('deactivateOperator'), [[2]])
  assert.equal(app.notices, [{ kind: 'success', message: deactivated('Hugo Lemaire') }])
  assert.is(screen.queryByRole('button', { name: 'Désactiver Hugo Lemaire' }), null)
})

Operators('the list failing: said, with « Réessayer »', async () => {
  const app = await renderBackOffice('/operateur/administration', { signedIn: ines, answers: { getOperators: [down, [summary(ines)]] } })
  const list = await screen.findByRole('region', { name: 'Opérateurs' })
  fireEvent.click(await within(list).findByRole('button', { name: 'Réessayer' }))
  await within(list).findByRole('table')
  assert.is(app.called('getOperators').length, 2)
})

const Keys = suite('back office: Administration › Clés d’API')
Keys.after.each(() => cleanup())

const key = (id: number, name: string, extra: Partial<ApiKeySummary> = {}): ApiKeySummary => ({
  id,
  name,
  prefix: `dk_${id}abcdefg`,
  createdAt: '2026-11-01T10:00:00.000Z',
  createdBy: 'Inès Garnier',
  revokedAt: null,
  lastUsedAt: null,
  ...extra,
})

Keys('none yet: said; a name is needed', async () => {
  const app = await renderBackOffice('/operateur/administration/cles-api', { signedIn: ines })
  await screen.findByText('Aucune clé d’API pour l’instant.')
  fireEvent.click(screen.getByRole('button', { name: 'Créer la clé' }))
  await screen.findByText(NAME_NEEDED)
  assert.equal(app.called('createApiKey'), [])
})

Keys('created: the key shown once with « Copier », then only its first characters in the list', async () => {
  const secret = 'dk_2abcdefg_Zm9vYmFyYmF6cXV4X3NlY3JldA'
  let copied = ''
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (text: string) => void (copied = text) }, configurable: true })
  const app = await renderBackOffice('/operateur/administration/cles-api', {
    signedIn: ines,
    keys: [key(1, 'Facturation', { lastUsedAt: '2026-11-19T09:00:00.000Z' })],
    answers: { createApiKey: [{ apiKey: key(2, 'Scanner salle 2'), key: secret }] },
  })
  await screen.findByRole('cell', { name: 'Facturation' })
  type('Nom de la clé', 'Scanner salle 2')
  fireEvent.click(screen.getByRole('button', { name: 'Créer la clé' }))
  const shown = await dialog()
  assert.equal(app.called('createApiKey'), [[{ name: 'Scanner salle 2' }]])
  assert.match(shown.textContent!, secret)
  assert.match(shown.textContent!, 'elle ne sera plus jamais affichée')
  fireEvent.click(within(shown).getByRole('button', { name: 'Copier la clé' }))
  await within(shown).findByText(COPIED)
  assert.is(copied, secret)
  fireEvent.click(within(shown).getByRole('button', { name: 'J’ai copié la clé' }))
  await waitFor(() => assert.is(screen.queryByRole('dialog'), null))
  assert.not.match(document.body.textContent!, secret)
  assert.equal(
    screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[0]!.textContent),
    ['Scanner salle 2', 'Facturation'],
  )
  screen.getByText('dk_2abcdefg…')
})

Keys('revoked only after the confirmation; the row says when', async () => {
  const app = await renderBackOffice('/operateur/administration/cles-api', {
    signedIn: ines,
    keys: [key(1, 'Facturation')],
    answers: { revokeApiKey: [key(1, 'Facturation', { revokedAt: '2026-11-20T10:00:00.000Z' })] },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Révoquer la clé Facturation' }))
  const confirm = await dialog()
  fireEvent.click(within(confirm).getByRole('button', { name: 'Révoquer' }))
  await screen.findByText(/^Révoquée le/)
  assert.equal(app.called('revokeApiKey'), [[1]])
  assert.equal(app.notices, [{ kind: 'success', message: keyRevoked('Facturation') }])
})

Keys('the list failing: said, with « Réessayer »', async () => {
  await renderBackOffice('/operateur/administration/cles-api', { signedIn: ines, answers: { getApiKeys: [down, []] } })
  fireEvent.click(await screen.findByRole('button', { name: 'Réessayer' }))
  await screen.findByText('Aucune clé d’API pour l’instant.')
})

const Journal = suite('back office: Administration › Journal')
Journal.after.each(() => cleanup())

const entry = (id: number, extra: Partial<JournalEntry> = {}): JournalEntry => ({
  id,
  at: '2026-11-20T10:00:00.000Z',
  operator: { id: 1, name: 'Inès Garnier', email: 'operateur@example.com' },
  apiKey: null,
  action: 'apiKey.created',
  orderId: null,
  summary: `Clé d’API n°${id} créée`,
  before: null,
  after: null,
  ...extra,
})

Journal('the rows, the filters sent as typed (page 1 again), the pages, and the CSV with the same filters', async () => {
  const many = {
    entries: [
      entry(9),
      entry(8, { operator: null, apiKey: { id: 4, name: 'Scanner', prefix: 'dk_4' }, action: 'letter.added', orderId: 12 }),
    ],
    page: 1,
    pageSize: 50,
    total: 120,
  }
  const app = await renderBackOffice('/operateur/administration/journal', {
    signedIn: ines,
    answers: { getJournal: [many, { ...many, page: 2 }, { ...many, total: 1, entries: [entry(9)] }] },
  })
  await screen.findByText('120 entrées, page 1 sur 3.')
  const rows = screen.getAllByRole('row').slice(1)
  assert.equal(
    within(rows[1]!)
      .getAllByRole('cell')
      .map((c) => c.textContent),
    ['20/11/2026 11:00', 'Clé « Scanner »', 'Courrier ajouté (API)', '12', 'Clé d’API n°8 créée'],
  )
  fireEvent.click(screen.getByRole('button', { name: 'Page suivante' }))
  await screen.findByText('120 entrées, page 2 sur 3.')
  await waitFor(() => assert.ok(screen.getByRole('option', { name: 'Hugo Lemaire' })))
  fireEvent.change(screen.getByLabelText('Opérateur'), { target: { value: '1' } })
  fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'apiKey.created' } })
  type('Commande n°', 'abc')
  fireEvent.click(screen.getByRole('button', { name: 'Filtrer' }))
  await screen.findByText('Saisissez un numéro de commande (des chiffres).')
  type('Commande n°', '12')
  type('Du', '2026-11-01')
  type('Au', '2026-11-30')
  fireEvent.click(screen.getByRole('button', { name: 'Filtrer' }))
  await screen.findByText('1 entrée, page 1 sur 1.')
  // (The filters left empty are sent as nothing: JSON drops them, as the client's query does.)
  assert.equal(JSON.parse(JSON.stringify(app.called('getJournal'))), [
    [{ page: 1 }],
    [{ page: 2 }],
    [{ operatorId: 1, orderId: 12, action: 'apiKey.created', from: '2026-11-01', to: '2026-11-30', page: 1 }],
  ])
  fireEvent.click(screen.getByRole('button', { name: 'Exporter en CSV' }))
  await waitFor(() => assert.is(app.saved.length, 1))
  assert.equal(JSON.parse(JSON.stringify(app.called('getJournalCsv'))), [
    [{ operatorId: 1, orderId: 12, action: 'apiKey.created', from: '2026-11-01', to: '2026-11-30' }],
  ])
  assert.match(app.saved[0]!.name, /^journal-\d{4}-\d{2}-\d{2}\.csv$/)
})

Journal('nothing matching: said; the export failing: said, the rows kept', async () => {
  await renderBackOffice('/operateur/administration/journal', { signedIn: ines, answers: { getJournalCsv: [down] } })
  await screen.findByText('Aucune entrée ne correspond à ces filtres.')
  fireEvent.click(screen.getByRole('button', { name: 'Exporter en CSV' }))
  await screen.findByText(down.message)
})

Journal('the journal failing: said, with « Réessayer »', async () => {
  await renderBackOffice('/operateur/administration/journal', {
    signedIn: ines,
    answers: { getJournal: [down, { entries: [entry(1)], page: 1, pageSize: 50, total: 1 }] },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Réessayer' }))
  await screen.findByText('1 entrée, page 1 sur 1.')
})

Operators.run()
Keys.run()
Journal.run()
