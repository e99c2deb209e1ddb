// The compliance desk in happy-dom: Justificatifs (the list oldest first with company and SIREN, one opened beside its
// file, « Valider », « Refuser » with a reason and « Autre » with its words, a file replaced meanwhile shown again with
// a warning and never decided unseen) and Formalités juridiques (one step forward with one button); neither for a
// Courrier operator.
import '../../util/dom.ts'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { REVIEW_MESSAGES } from '../../../src/backoffice/machines/company/justificatifReview.machine.ts'
import { apiError, hugo, ines, renderBackOffice } from '../../util/backoffice.tsx'
import { decided, justificatif, submission } from '../../util/backoffice-company.ts'

const conformite = { id: 3, email: 'lea@example.com', name: 'Léa Fontaine', roles: ['conformite' as const] }
const kbis = justificatif(3)
const identity = justificatif(5, {
  kind: 'identite',
  label: 'Pièce d’identité du gérant',
  raisonSociale: 'Conseil Horizon EURL',
  siren: '901 234 567',
  fileName: 'cni.png',
  contentType: 'image/png',
  filedAt: '2026-11-20T11:00:00.000Z',
})

const Justificatifs = suite('back office: Justificatifs')
Justificatifs.after.each(() => cleanup())

Justificatifs('a Courrier operator: no entry, « Accès réservé », no call', async () => {
  const app = await renderBackOffice('/operateur/justificatifs', { signedIn: hugo })
  await screen.findByRole('heading', { name: 'Accès réservé', level: 1 })
  assert.equal(app.called('getJustificatifs'), [])
  assert.not.ok(screen.queryByRole('link', { name: 'Justificatifs' }))
})

Justificatifs('the list, then one validated beside its file: it leaves the list, the operator is told', async () => {
  const app = await renderBackOffice('/operateur/justificatifs', {
    signedIn: conformite,
    answers: { getJustificatifs: [[kbis, identity]], getJustificatif: [kbis], validateJustificatif: [decided(kbis)] },
  })
  await screen.findByText('2 justificatifs à vérifier, le plus ancien en premier.')
  const [first, second] = screen.getAllByRole('heading', { level: 3 })
  assert.match(first!.textContent!, 'Kbis : Atelier Lumière SARL', 'oldest first, as the server lists them')
  assert.match(second!.textContent!, 'Pièce d’identité du gérant : Conseil Horizon EURL')
  assert.match(first!.closest('li')!.textContent!, 'SIREN 823 456 785')
  fireEvent.click(screen.getByRole('button', { name: 'Ouvrir : Kbis de Atelier Lumière SARL' }))
  await screen.findByRole('heading', { name: 'Kbis : Atelier Lumière SARL', level: 2 })
  assert.ok(await screen.findByTitle('Kbis de Atelier Lumière SARL (kbis-3.pdf)'), 'the PDF beside its details')
  assert.equal(app.called('getJustificatifFile'), [['kbis', 3]])
  fireEvent.click(screen.getByRole('button', { name: 'Valider' }))
  await screen.findByText('1 justificatif à vérifier, le plus ancien en premier.')
  assert.equal(app.called('validateJustificatif'), [['kbis', 3, { version: kbis.version }]])
  assert.equal(app.notices, [{ kind: 'success', message: 'Kbis de Atelier Lumière SARL validé.' }])
})

Justificatifs('refused: a reason is required, « Autre » asks for its words, which are sent trimmed', async () => {
  const app = await renderBackOffice('/operateur/justificatifs', {
    signedIn: ines,
    answers: { getJustificatifs: [[identity]], getJustificatif: [identity], refuseJustificatif: [decided(identity, { refused: true })] },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Ouvrir : Pièce d’identité du gérant de Conseil Horizon EURL' }))
  assert.ok(await screen.findByRole('img', { name: 'Pièce d’identité du gérant de Conseil Horizon EURL (cni.png)' }))
  fireEvent.click(screen.getByRole('button', { name: 'Refuser' }))
  const form = await screen.findByRole('form', { name: 'Refus du justificatif' })
  fireEvent.click(within(form).getByRole('button', { name: 'Confirmer le refus' }))
  await within(form).findByText(REVIEW_MESSAGES.reason)
  fireEvent.click(within(form).getByRole('radio', { name: 'Autre (précisez)' }))
  fireEvent.click(within(form).getByRole('button', { name: 'Confirmer le refus' }))
  await within(form).findByText(REVIEW_MESSAGES.detail)
  assert.equal(app.called('refuseJustificatif'), [], 'nothing sent incomplete')
  fireEvent.change(within(form).getByLabelText('Précisez le motif'), { target: { value: ' Pièce expirée depuis 2023 ' } })
  fireEvent.click(within(form).getByRole('button', { name: 'Confirmer le refus' }))
  await screen.findByText('Aucun justificatif à vérifier.')
  assert.equal(app.called('refuseJustificatif'), [
    ['identite', 5, { version: identity.version, reason: 'autre', detail: 'Pièce expirée depuis 2023' }],
  ])
})

Justificatifs(
  'replaced by the customer meanwhile: told, the new file shown, nothing decided until the operator decides again',
  async () => {
    const renewed = { ...kbis, version: '"v3-2"', filedAt: '2026-11-20T12:00:00.000Z' }
    const app = await renderBackOffice('/operateur/justificatifs', {
      signedIn: conformite,
      answers: {
        getJustificatifs: [[kbis]],
        getJustificatif: [kbis, renewed],
        validateJustificatif: [
          apiError(
            412,
            'Le client a envoyé un autre fichier (Kbis) depuis celui que vous avez ouvert : vérifiez le nouveau avant de décider.',
          ),
          decided(renewed),
        ],
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Ouvrir : Kbis de Atelier Lumière SARL' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Valider' }))
    await screen.findByText(REVIEW_MESSAGES.replaced)
    await waitFor(() =>
      assert.equal(
        app.called('getJustificatifFile'),
        [
          ['kbis', 3],
          ['kbis', 3],
        ],
        'the new file read',
      ),
    )
    assert.equal(app.called('validateJustificatif'), [['kbis', 3, { version: kbis.version }]])
    fireEvent.click(screen.getByRole('button', { name: 'Valider' }))
    await screen.findByText('Aucun justificatif à vérifier.')
    assert.equal(app.called('validateJustificatif').at(-1), ['kbis', 3, { version: '"v3-2"' }])
  },
)

Justificatifs('the list cannot be read: said, with « Réessayer »', async () => {
  await renderBackOffice('/operateur/justificatifs', {
    signedIn: conformite,
    answers: { getJustificatifs: [apiError(503, 'Le service est momentanément indisponible.'), [kbis]] },
  })
  await screen.findByText('Le service est momentanément indisponible.')
  fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }))
  await screen.findByText('1 justificatif à vérifier, le plus ancien en premier.')
})

Justificatifs.run()

const Formalities = suite('back office: Formalités juridiques')
Formalities.after.each(() => cleanup())

Formalities('each moved one step with one button; a finished one has none; Courrier has no access', async () => {
  const received = submission(3, { comment: 'Nouveau gérant : Paul Girard' })
  const finished = submission(5, { raisonSociale: 'Boulangerie des Lilas SAS', kind: 'modification-capital', status: 'Terminée' })
  const app = await renderBackOffice('/operateur/formalites', {
    signedIn: conformite,
    answers: {
      getLegalSubmissions: [[received, finished]],
      moveLegalSubmission: [{ ...received, status: 'En cours', startedAt: '2026-11-20T10:00:00.000Z' }],
    },
  })
  await screen.findByText('1 en cours, la plus ancienne en premier ; puis les terminées.')
  const card = screen.getByRole('heading', { name: /Changement de dirigeant : Studio Nuage SAS/, level: 3 }).closest('li')!
  assert.match(card.textContent!, 'Précisions du client : Nouveau gérant : Paul Girard')
  assert.is(screen.getAllByRole('button', { name: /^Passer à/ }).length, 1, 'none for a finished one')
  fireEvent.click(screen.getByRole('button', { name: 'Passer à « En cours » : Changement de dirigeant de Studio Nuage SAS' }))
  await screen.findByRole('button', { name: 'Passer à « Déposée au greffe » : Changement de dirigeant de Studio Nuage SAS' })
  assert.equal(app.called('moveLegalSubmission'), [[3, { status: 'En cours' }]])
  assert.match(app.notices[0]!.message, 'étape « En cours »')
  cleanup()
  const courrier = await renderBackOffice('/operateur/formalites', { signedIn: hugo })
  await screen.findByRole('heading', { name: 'Accès réservé', level: 1 })
  assert.equal(courrier.called('getLegalSubmissions'), [])
})

Formalities.run()
