// Issue 39's journey in Chromium at 1280 px, a customer and the provider's operators side by side on the real server:
// Camille files the Atelier's Kbis; Inès (Administrateur) refuses it as illegible; the Kbis banner comes back to Camille
// with that reason, she files another, Inès validates it and the banner is gone for good. Camille reports a problem;
// Inès answers in Messages; Camille reads the answer in « Mes échanges » and replies; Inès closes the conversation.
// Camille asks to end a domiciliation; Inès accepts it for a date and the portal says « Domiciliation résiliée au … ».
// Hugo (Courrier) has none of these screens in his menu and reads « Accès réservé » at each address.
import * as assert from 'uvu/assert'
import type { Page } from 'playwright-core'
import { frenchDay } from '../../../server/contract/rules/french-date.ts'
import { chooseOrder, DESKTOP, pageTitle, portalSuite, samplePdf, screenshot, signIn, toast } from '../../util/e2e.ts'
import { axeChecker, menu, signInOperator } from '../../util/e2e-backoffice.ts'

const ATELIER = 'Atelier Lumière SARL'
const BOULANGERIE = 'Boulangerie des Lilas SAS'
const portalMenu = (page: Page) => page.getByRole('complementary', { name: 'Menu principal' })
const kbisBanner = (page: Page) => page.getByRole('region', { name: 'Justificatif d’immatriculation' })

const Compliance = portalSuite('Back-office : un Kbis refusé puis validé, un échange, une résiliation ; Courrier tenu à l’écart')

Compliance(
  '1280 px: a Kbis refused as illegible comes back with its reason; another one validated, the banner goes',
  async ({ portal }) => {
    const customerTab = await portal.open({ viewport: DESKTOP })
    const customerAxe = axeChecker(customerTab, DESKTOP)
    const customer = customerTab.page
    await signIn(customer)
    await chooseOrder(customer, ATELIER)
    await pageTitle(customer, 'Tableau de bord').waitFor()
    const fileKbis = async (title: string) => {
      await kbisBanner(customer).getByRole('button', { name: 'Je dépose mon Kbis' }).click()
      const dialog = customer.getByRole('dialog', { name: 'Déposer mon justificatif' })
      const chooser = customer.waitForEvent('filechooser')
      await dialog.getByRole('button', { name: 'Oui' }).click()
      await (await chooser).setFiles({ name: 'kbis.pdf', mimeType: 'application/pdf', buffer: await samplePdf(title) })
      await toast(customer, 'Merci ! Votre justificatif a bien été déposé.').waitFor()
      await kbisBanner(customer).waitFor({ state: 'detached' })
    }
    await fileKbis('Extrait Kbis (photo floue)')

    const operatorTab = await portal.open({ viewport: DESKTOP })
    const operator = operatorTab.page
    const axe = axeChecker(operatorTab, DESKTOP)
    await signInOperator(operator, 'operateur@example.com')
    // The queue as it is now: the page is read again, as an operator does who expects a new document.
    const openAtelierKbis = async () => {
      await operator.goto('/operateur/justificatifs')
      await operator.getByRole('heading', { name: 'Justificatifs à vérifier', level: 2 }).waitFor()
      await operator.getByRole('button', { name: `Ouvrir : Kbis de ${ATELIER}` }).click()
      await operator.getByRole('heading', { name: `Kbis : ${ATELIER}`, level: 2 }).waitFor()
    }

    // Refused as illegible: the reason is the customer's to read.
    await menu(operator).getByRole('link', { name: 'Justificatifs' }).click()
    await operator.getByRole('button', { name: `Ouvrir : Kbis de ${ATELIER}` }).waitFor()
    await axe.check('/operateur/justificatifs')
    await screenshot(operator, 'backoffice-justificatifs')
    await openAtelierKbis()
    await axe.check('/operateur/justificatifs, un Kbis ouvert')
    await screenshot(operator, 'backoffice-justificatif')
    await operator.getByRole('button', { name: 'Refuser', exact: true }).click()
    await operator.getByRole('radio', { name: 'Illisible' }).check()
    await axe.check('/operateur/justificatifs, le refus')
    await screenshot(operator, 'backoffice-justificatif-refusal')
    await operator.getByRole('button', { name: 'Confirmer le refus' }).click()
    await operator.getByRole('heading', { name: 'Justificatifs à vérifier', level: 2 }).waitFor()
    assert.is(await operator.getByRole('button', { name: `Ouvrir : Kbis de ${ATELIER}` }).count(), 0, 'a refused Kbis leaves the queue')

    await customer.reload()
    await pageTitle(customer, 'Tableau de bord').waitFor()
    await kbisBanner(customer).getByText('Votre Kbis a été refusé : document illisible. Déposez-en un autre.').waitFor()
    await screenshot(customer, 'kbis-refused-desktop')
    await fileKbis('Extrait Kbis de moins de trois mois')

    // The new one validated: the banner stays gone.
    await openAtelierKbis()
    await operator.getByRole('button', { name: 'Valider', exact: true }).click()
    await operator.getByRole('heading', { name: 'Justificatifs à vérifier', level: 2 }).waitFor()
    assert.is(await operator.getByRole('button', { name: `Ouvrir : Kbis de ${ATELIER}` }).count(), 0, 'a validated Kbis leaves the queue')
    await customer.reload()
    await pageTitle(customer, 'Tableau de bord').waitFor()
    assert.is(await kbisBanner(customer).count(), 0, 'no banner once the Kbis is validated')
    assert.ok((await portal.orders())[ATELIER]!.hasKbis)

    // « Formalités juridiques »: its screen opens with its data.
    await menu(operator).getByRole('link', { name: 'Formalités juridiques' }).click()
    await operator.getByRole('heading', { name: 'Formalités juridiques', level: 1 }).waitFor()
    await axe.check('/operateur/formalites')
    await screenshot(operator, 'backoffice-formalities')

    // A problem reported becomes a conversation: answered by Inès, read and answered by Camille, closed by Inès.
    const problem = `Le scan de mon courrier du ${new Date().toLocaleDateString('fr-FR')} est coupé en bas.`
    await customer.getByRole('button', { name: 'Signaler un problème' }).click()
    const problemDialog = customer.getByRole('dialog', { name: 'Signaler un problème' })
    await problemDialog.getByLabel('Votre message').fill(problem)
    await problemDialog.getByRole('button', { name: 'Envoyer' }).click()
    await toast(customer, 'Votre demande est envoyé, nous revenons vers vous au plus vite').waitFor()

    const reply = 'Merci : nous le numérisons de nouveau, vous l’aurez avant midi.'
    await menu(operator).getByRole('link', { name: 'Messages' }).click()
    await operator.getByRole('heading', { name: 'Conversations ouvertes', level: 2 }).waitFor()
    const openConversation = operator.getByRole('button', { name: new RegExp(`^Ouvrir la conversation de ${ATELIER} : `) })
    await axe.check('/operateur/messages')
    await screenshot(operator, 'backoffice-messages')
    await openConversation.click()
    await operator.getByRole('list', { name: 'Messages de la conversation' }).getByText(problem).waitFor()
    await operator.getByLabel('Votre réponse (le client la lira et en sera averti par e-mail)').fill(reply)
    await operator.getByRole('button', { name: 'Envoyer la réponse' }).click()
    await operator.getByRole('list', { name: 'Messages de la conversation' }).getByText(reply).waitFor()
    await axe.check('/operateur/messages/:id')
    await screenshot(operator, 'backoffice-conversation')

    const answer = 'Parfait, merci beaucoup.'
    await portalMenu(customer).getByRole('link', { name: 'Mes échanges' }).click()
    await customer.getByRole('heading', { name: 'Mes échanges', level: 2 }).waitFor()
    await customerAxe.check('/mes-echanges')
    await customer
      .getByRole('link', { name: new RegExp(ATELIER) })
      .first()
      .click()
    const thread = customer.getByRole('list', { name: 'Messages' })
    await thread.getByText(reply).waitFor()
    await thread.getByText('Inès Garnier, de notre équipe').waitFor()
    await customerAxe.check('/mes-echanges/:id')
    await screenshot(customer, 'mes-echanges-desktop')
    await customer.getByLabel('Votre message').fill(answer)
    await customer.getByRole('button', { name: 'Envoyer', exact: true }).click()
    await thread.getByText(answer).waitFor()

    await operator.getByRole('button', { name: '← Retour aux conversations' }).click()
    await openConversation.click()
    await operator.getByRole('list', { name: 'Messages de la conversation' }).getByText(answer).waitFor()
    await operator.getByRole('button', { name: 'Clore', exact: true }).click()
    await operator.getByRole('button', { name: 'Rouvrir', exact: true }).waitFor()
    await customer.reload()
    await thread.getByText(answer).waitFor()
    await customer.getByText('Votre réponse la rouvrira.').waitFor()

    // A termination accepted for a date: the portal says when the domiciliation ends.
    await customer.goto('/souscription/mes-abonnements')
    await customer.getByLabel('Domiciliation', { exact: true }).selectOption({ label: BOULANGERIE })
    await pageTitle(customer, 'Mes abonnements').waitFor()
    await customer.getByRole('button', { name: `Résilier la domiciliation de ${BOULANGERIE}` }).click()
    const termination = customer.getByRole('dialog', { name: `Résilier la domiciliation de ${BOULANGERIE}` })
    const reason = termination.getByLabel('Motif', { exact: true })
    await reason.selectOption({ index: 1 })
    const wanted = termination.getByLabel('Date de résiliation souhaitée')
    const day = (await wanted.getAttribute('min')) ?? (await wanted.inputValue())
    assert.match(day, /^\d{4}-\d{2}-\d{2}$/)
    await wanted.fill(day)
    await termination.getByRole('button', { name: 'Envoyer la demande' }).click()
    await customer.getByText(`Résiliation demandée pour le ${frenchDay(day)}.`).waitFor()

    await menu(operator).getByRole('link', { name: 'Résiliations' }).click()
    await operator.getByRole('heading', { name: 'Demandes de résiliation', level: 2 }).waitFor()
    await operator.getByRole('button', { name: `Accepter la résiliation de ${BOULANGERIE}` }).click()
    await operator.getByLabel('Date de fin de la domiciliation').fill(day)
    await axe.check('/operateur/resiliations, l’acceptation')
    await screenshot(operator, 'backoffice-terminations')
    await operator.getByRole('button', { name: 'Accepter la résiliation', exact: true }).click()
    await operator.getByText(/^Acceptée par Inès Garnier : fin le /).waitFor()

    await customer.reload()
    await pageTitle(customer, 'Mes abonnements').waitFor()
    await customer.getByText(`Domiciliation résiliée au ${frenchDay(day)}.`).waitFor()
    await customerAxe.done()
    await axe.done()
  },
)

Compliance('1280 px: a Courrier operator has none of these screens, and reads « Accès réservé » at each address', async ({ portal }) => {
  const tab = await portal.open({ viewport: DESKTOP })
  const { page } = tab
  const axe = axeChecker(tab, DESKTOP)
  await signInOperator(page, 'courrier@example.com')
  const entries = await menu(page).getByRole('link').allTextContents()
  for (const screen of ['Justificatifs', 'Messages', 'Formalités juridiques', 'Résiliations'])
    assert.not.ok(entries.includes(screen), `${screen} is not in the Courrier operator's menu`)
  for (const path of ['/operateur/justificatifs', '/operateur/messages', '/operateur/formalites', '/operateur/resiliations']) {
    await page.goto(path)
    await page.getByRole('heading', { name: 'Accès réservé', level: 1 }).waitFor()
    assert.match((await page.getByRole('main').textContent())!, 'réservée aux opérateurs ayant le rôle')
  }
  await axe.check('Accès réservé (Courrier)')
  await axe.done()
})

Compliance.run()
