// « Mes données » on /informations-personnelles: prepared in one click, its progress while the server works, the
// download once ready, « Réessayer » when it failed, and the server's French 410 once expired.
import { recordDownloads } from '../../util/downloads.ts'
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { DataExport } from '../../../server/contract/people-exports.ts'
import { DATA_EXPORT_POLL_MS } from '../../../src/machines/people/dataExport.machine.ts'
import { renderApp, type PeopleScenario } from '../../util/services.tsx'

const ready: DataExport = {
  id: 9,
  state: 'ready',
  progress: 100,
  createdAt: '2026-11-22T10:00:00.000Z',
  readyAt: '2026-11-22T10:01:00.000Z',
  expiresAt: '2026-11-29T10:01:00.000Z',
  bytes: 12_345_678,
  letters: 32,
  file: '/api-protected/users/me/data-exports/9/file',
}
const preparing: DataExport = { ...ready, state: 'preparing', progress: 40, readyAt: null, expiresAt: null, bytes: null, file: null }

const open = (people: PeopleScenario = {}) => renderApp('/informations-personnelles', { signedIn: true, defaultOrder: 2, people })
const section = async () => screen.findByRole('region', { name: 'Mes données' })
const poll = { timeout: DATA_EXPORT_POLL_MS + 2000 }

const MyData = suite('/informations-personnelles: « Mes données »')
/** Downloads handed to the browser, recorded while the suite runs (test/util/downloads.ts). */
const saved = recordDownloads(MyData)
MyData.after.each(() => {
  saved.length = 0
  cleanup()
})

MyData('one click prepares; the progress shows while the server works; ready, the ZIP downloads', async () => {
  const app = await open({ dataExportChecks: [preparing, ready] })
  const card = await section()
  fireEvent.click(await within(card).findByRole('button', { name: 'Préparer mes données' }))
  const status = await within(card).findByRole('status')
  assert.match(status.textContent!, 'Préparation de vos données : ')
  assert.ok(within(card).getByRole('progressbar', { name: /Préparation de vos données/ }))
  assert.not.ok(within(card).queryByRole('button', { name: 'Préparer mes données' }), 'no second click while it is prepared')
  await within(card).findByText('Préparation de vos données : 40 %', {}, poll)
  const download = await within(card).findByRole('button', { name: 'Télécharger mes données' }, poll)
  assert.match(card.textContent!, /Vos données sont prêtes \(12 Mo\)\. Téléchargeables jusqu’au/)
  fireEvent.click(download)
  await waitFor(() =>
    assert.equal(
      saved.map((f) => f.fileName),
      ['mes-donnees-2026-11-22.zip'],
    ),
  )
  assert.equal(
    app.calls.people.filter(([n]) => String(n).includes('DataExport')),
    [['getDataExports'], ['startDataExport'], ['getDataExport', 9], ['getDataExport', 9], ['getDataExportFile', 9]],
  )
})

MyData('an export being prepared when the page opens is followed; the e-mailed link’s anchor is the section', async () => {
  await open({ dataExport: preparing, dataExportChecks: [ready] })
  const card = await section()
  assert.is(card.querySelector('h2')!.id, 'mes-donnees')
  await within(card).findByText('Préparation de vos données : 40 %')
  await within(card).findByRole('button', { name: 'Télécharger mes données' }, poll)
})

MyData('failed: said, and « Réessayer » starts another', async () => {
  const app = await open({ dataExport: { ...preparing, state: 'failed' } })
  const card = await section()
  assert.match((await within(card).findByRole('alert')).textContent!, 'La préparation de vos données a échoué.')
  fireEvent.click(within(card).getByRole('button', { name: 'Réessayer' }))
  await within(card).findByRole('status')
  assert.ok(app.calls.people.some(([n]) => n === 'startDataExport'))
})

MyData('expired meanwhile: the server’s French 410, and the section offers to prepare another', async () => {
  await open({ dataExport: ready, dataExportGone: true })
  const card = await section()
  fireEvent.click(await within(card).findByRole('button', { name: 'Télécharger mes données' }))
  assert.match((await within(card).findByRole('alert')).textContent!, 'Ce lien a expiré le 29 novembre 2026')
  assert.ok(within(card).getByRole('button', { name: 'Préparer mes données' }))
  assert.equal(saved, [])
})

MyData.run()
