// The people journeys in Chromium, against the real server and the demo data, at
// http://localhost:<port> (WebAuthn needs a host name): Camille changes her password and signs in with
// the new one; she registers a passkey (Chromium's virtual authenticator, through the DevTools
// protocol) and signs in with it; she invites two collaborators, one follows the e-mail's link from the
// outbox, creates an account and sees the shared order; she removes one and they lose access; she adds
// and removes a representative.
import type { Page } from 'playwright-core'
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import {
  chooseOrder,
  DEMO_PASSWORD,
  DESKTOP,
  MOBILE,
  pageTitle,
  type Portal,
  screenshot,
  signIn,
  startPortal,
  toast,
  type Viewport,
} from '../../util/e2e.ts'

const BOULANGERIE = 'Boulangerie des Lilas SAS'
const shot = (page: Page, name: string, viewport: Viewport) => screenshot(page, `${name}-${viewport === MOBILE ? 'mobile' : 'desktop'}`)

async function openAs(portal: Portal, viewport: Viewport, path: string, email = 'demo@example.com', password = DEMO_PASSWORD) {
  const tab = await portal.open({ viewport })
  await signIn(tab.page, email, password)
  await chooseOrder(tab.page, BOULANGERIE)
  await pageTitle(tab.page, 'Tableau de bord').waitFor()
  await tab.page.goto(path)
  return tab
}

/** The newest outbox e-mail to this address, and the link it carries. */
async function outboxLink(portal: Portal, to: string): Promise<string> {
  for (let tries = 0; tries < 50; tries++) {
    const mail = await portal.server.deps.db
      .selectFrom('outbox')
      .select('text')
      .where('to_address', '=', to)
      .orderBy('id', 'desc')
      .executeTakeFirst()
    const link = mail?.text.match(/https?:\/\/\S+\/invitation\/[\w-]+/)?.[0]
    if (link) return link
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`aucune invitation dans l’outbox pour ${to}`)
}

const People = suite<{ portal: Portal }>('People in Chromium')
People.before(async (ctx) => {
  ctx.portal = await startPortal({ localhost: true })
})
People.after.each(async (ctx) => ctx.portal.closeLeftovers('people'))
People.after(async (ctx) => ctx.portal.close())

People('1280 px: she registers a passkey with the virtual authenticator, then signs in with it alone', async ({ portal }) => {
  const tab = await openAs(portal, DESKTOP, '/informations-personnelles')
  const { page } = tab
  assert.match(portal.url, /^http:\/\/localhost:\d+$/)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  await page.getByRole('button', { name: 'Ajouter une clé d’accès' }).click()
  await toast(page, 'La clé d’accès a été ajoutée').waitFor()
  const list = page.getByRole('list', { name: 'Clés d’accès' })
  assert.match((await list.textContent())!, /Chrome sur Linux/)
  assert.match((await list.textContent())!, /jamais utilisée/)
  await page.getByRole('button', { name: 'Se déconnecter' }).click()
  await page.waitForURL((url) => url.pathname === '/login')
  await page.getByRole('button', { name: 'Se connecter avec une clé d’accès' }).click()
  // The order she chose before is kept for her (per person, across sign-outs): the dashboard at once.
  await pageTitle(page, 'Tableau de bord').waitFor()
  await tab.close()
})

for (const viewport of [DESKTOP, MOBILE]) {
  People(`${viewport.width} px: she adds a representative (any phone spelling) and removes one`, async ({ portal }) => {
    const tab = await openAs(portal, viewport, '/mes-courriers/colis')
    const { page } = tab
    await page.getByRole('link', { name: 'Qui peut retirer mes colis ?' }).click()
    await pageTitle(page, 'Mes représentants').waitFor()
    const list = page.getByRole('list', { name: 'Représentants' })
    await list.getByText('Léa Fontaine').waitFor()
    await page.getByRole('button', { name: 'Ajouter un représentant' }).click()
    const dialog = page.getByRole('dialog', { name: 'Ajouter un représentant' })
    const name = viewport === MOBILE ? 'Marc' : 'Paul'
    await dialog.getByLabel('Prénom').fill(name)
    await dialog.getByLabel('Nom', { exact: true }).fill('Durand')
    await dialog.getByLabel('Adresse e-mail').fill(`${name.toLowerCase()}.durand@example.com`)
    await dialog.getByLabel('Téléphone').fill('+33 (0)6 11 22 33 44')
    await dialog.getByRole('button', { name: 'Ajouter' }).click()
    await list.getByText(`${name} Durand`).waitFor()
    assert.match((await list.textContent())!, /06 11 22 33 44/)
    // The toast says it, and she closes it: on a phone it sits at the bottom, over the list's last « Retirer »,
    // and a pointer left where « Ajouter » was keeps it there (hovered, it waits).
    const added = toast(page, 'Le représentant a été ajouté : il pourra retirer le courrier et les colis au comptoir.')
    await added.waitFor()
    await page.locator('[data-rht-toaster]').getByRole('button', { name: 'Fermer' }).click()
    await added.waitFor({ state: 'detached' })
    await shot(page, 'representants', viewport)
    await page.getByRole('button', { name: `Retirer ${name} Durand` }).click()
    await page
      .getByRole('dialog', { name: `Retirer ${name} Durand ?` })
      .getByRole('button', { name: 'Retirer le représentant' })
      .click()
    await list.getByText(`${name} Durand`).waitFor({ state: 'detached' })
    await page.reload()
    await list.getByText('Léa Fontaine').waitFor()
    assert.not.match((await list.textContent())!, new RegExp(name))
    await tab.close()
  })
}

People(
  'she invites two collaborators; one follows the link, creates an account and sees the order; removed, they lose access',
  async ({ portal }) => {
    const tab = await openAs(portal, DESKTOP, '/mes-collaborateurs')
    const { page } = tab
    await page.getByRole('list', { name: 'Collaborateurs' }).getByText('Julien Moreau').waitFor()
    await page.getByRole('button', { name: 'Inviter', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Inviter des collaborateurs' })
    await dialog.getByLabel('Adresses e-mail').fill('nina.roussel@example.com, pas-une-adresse')
    await dialog.getByRole('button', { name: 'Envoyer les invitations' }).click()
    await dialog.getByText('Cette adresse n’est pas valide : pas-une-adresse. Corrigez-la puis réessayez.').waitFor()
    await dialog.getByLabel('Adresses e-mail').fill('nina.roussel@example.com\nmarc.petit@example.com')
    await dialog.getByRole('button', { name: 'Envoyer les invitations' }).click()
    await toast(page, '2 invitations envoyées.').waitFor()
    const list = page.getByRole('list', { name: 'Collaborateurs' })
    await list.getByText('nina.roussel@example.com').waitFor()
    await shot(page, 'collaborateurs', DESKTOP)

    // Nina opens the link on her phone: a new address, so first name, last name and a password.
    const link = await outboxLink(portal, 'nina.roussel@example.com')
    assert.ok(link.startsWith(`${portal.url}/invitation/`), link)
    const nina = await portal.open({ viewport: MOBILE })
    await nina.page.goto(link)
    await nina.page.getByText(/Camille Martin vous invite à consulter le courrier et les colis de/).waitFor()
    await nina.page.getByLabel('Prénom').fill('Nina')
    await nina.page.getByLabel('Nom', { exact: true }).fill('Roussel')
    await nina.page.getByLabel('Mot de passe', { exact: true }).fill('azerty123456')
    await nina.page.getByText('pas un mot de passe courant').waitFor()
    await nina.page.getByLabel('Mot de passe', { exact: true }).fill('des lilas en hiver')
    await nina.page.getByLabel('Confirmez le mot de passe').fill('des lilas en hiver')
    await shot(nina.page, 'invitation', MOBILE)
    await nina.page.getByRole('button', { name: 'Créer mon accès et accepter' }).click()
    await pageTitle(nina.page, 'Tableau de bord').waitFor()
    await nina.page.getByText(BOULANGERIE).first().waitFor()
    await nina.page.goto('/mes-courriers/courriers')
    await nina.page.getByRole('listbox', { name: 'Courriers' }).getByRole('option').first().waitFor()

    // Camille sees her active; removes her; Nina's next call on the order is refused.
    await page.reload()
    await list.getByText('Nina Roussel').waitFor()
    await page.getByRole('button', { name: 'Retirer nina.roussel@example.com' }).click()
    await page.getByRole('dialog', { name: 'Retirer nina.roussel@example.com ?' }).getByRole('button', { name: 'Retirer l’accès' }).click()
    await list.getByText('Nina Roussel').waitFor({ state: 'detached' })
    nina.allow(/status of 404/)
    await nina.page.reload()
    await nina.page
      .getByText(/Vous n'avez pas encore de domiciliation active|aucune domiciliation/i)
      .first()
      .waitFor()
    await nina.close()

    // The other invitation, as it shows on a desktop; and the list on a phone.
    const marc = await portal.open({ viewport: DESKTOP })
    await marc.page.goto(await outboxLink(portal, 'marc.petit@example.com'))
    await marc.page.getByRole('button', { name: 'Créer mon accès et accepter' }).waitFor()
    await shot(marc.page, 'invitation', DESKTOP)
    await marc.close()
    const phone = await openAs(portal, MOBILE, '/mes-collaborateurs')
    await phone.page.getByRole('list', { name: 'Collaborateurs' }).getByText('marc.petit@example.com').waitFor()
    await shot(phone.page, 'collaborateurs', MOBILE)
    await phone.close()
    await tab.close()
  },
)

People.run()

// Changing the password ends the other sessions, so this journey has its own server.
const Password = suite('Password change in Chromium')
Password('360 px: Camille changes her password (the rule shown as she types) and signs in with the new one', async () => {
  const portal = await startPortal({ localhost: true })
  try {
    const tab = await openAs(portal, MOBILE, '/informations-personnelles')
    const { page } = tab
    await pageTitle(page, 'Informations personnelles').waitFor()
    await page.getByRole('list', { name: 'Appareils connectés' }).getByText('Cet appareil').waitFor()
    await shot(page, 'informations-personnelles', MOBILE)
    const form = page.getByRole('form', { name: 'Modifier mon mot de passe' })
    await form.getByLabel('Mot de passe actuel').fill(DEMO_PASSWORD)
    await form.getByLabel('Nouveau mot de passe').fill('court')
    await form.getByText('au moins 12 caractères (5 pour l’instant)').waitFor()
    // Guessed fast by a cracking program: the strength estimator, a chunk of its own loaded with the form, says why.
    await form.getByLabel('Nouveau mot de passe').fill('Motdepasse123!')
    await form.getByText(/^difficile à deviner : /).waitFor()
    await form.getByLabel('Nouveau mot de passe').fill('le fournil ouvre à six heures')
    await form.getByLabel('Confirmez le mot de passe').fill('le fournil ouvre à six heures')
    await form.getByRole('button', { name: 'Modifier mon mot de passe' }).click()
    await toast(page, 'Votre mot de passe a été modifié').first().waitFor()
    await page.getByRole('button', { name: 'Se déconnecter' }).click()
    await page.waitForURL((url) => url.pathname === '/login')
    tab.allow(/status of 401/)
    await signIn(page, 'demo@example.com', DEMO_PASSWORD)
    await page.getByRole('alert').filter({ hasText: 'Identifiants incorrects' }).waitFor()
    await signIn(page, 'demo@example.com', 'le fournil ouvre à six heures')
    // The order she chose before is kept for her (per person, across sign-outs): the dashboard at once.
    await pageTitle(page, 'Tableau de bord').waitFor()
    await tab.close()

    const desk = await openAs(portal, DESKTOP, '/informations-personnelles', 'demo@example.com', 'le fournil ouvre à six heures')
    await desk.page.getByRole('list', { name: 'Appareils connectés' }).getByText('Cet appareil').waitFor()
    await shot(desk.page, 'informations-personnelles', DESKTOP)
    await desk.close()
  } finally {
    await portal.close()
  }
})
Password.run()
