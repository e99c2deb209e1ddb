// notifications in Chromium, against the real server: the bell lights up while the page is
// open when an operator adds a letter through the operator API (the live stream); opening the
// notification opens the letter; its Historique then says it was opened, and sent by e-mail to whom. The
// dashboard's letters card shows the new letter meanwhile, without falling back to its spinner. An
// operator moving a formality on, and the billing system issuing invoices, update the open pages too.
import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import * as assert from 'uvu/assert'
import {
  chooseOrder,
  DESKTOP,
  MOBILE,
  pageTitle,
  portalSuite,
  samplePdf,
  screenshot,
  signIn,
  type Portal,
  type Viewport,
} from '../../util/e2e.ts'

const OPERATOR_TOKEN = 'jeton-operateur-e2e-0123456789abcdef'
const BOULANGERIE = 'Boulangerie des Lilas SAS'

async function ingest(portal: Portal, sender: string) {
  const orderId = (await portal.orders())[BOULANGERIE]!.id
  const pdf = await samplePdf(`Courrier de ${sender}`)
  const res = await fetch(`${portal.url}/api/operator/domiciliation-orders/${orderId}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ sender, file: `data:application/pdf;base64,${pdf.toString('base64')}` }),
  })
  assert.is(res.status, 200, await res.clone().text())
  return (await res.json()).document.id as number
}

/** What the bell will count once it has read its list, straight from the API. */
async function unreadOnServer(portal: Portal) {
  const apiToken = await portal.apiToken()
  return ((await (await fetch(`${portal.url}/api-protected/notifications`, { headers: { apiToken } })).json()) as { unread: number }).unread
}

const unreadOf = async (page: Page) => {
  const label = (await page.getByRole('button', { name: /^(Notifications|\d+ notifications? non lues?)$/ }).getAttribute('aria-label'))!
  return label === 'Notifications' ? 0 : Number(label.split(' ')[0])
}

const Notifications = portalSuite('Notifications in Chromium', { config: { operatorToken: OPERATOR_TOKEN } })

for (const viewport of [DESKTOP, MOBILE] as Viewport[]) {
  const size = viewport === MOBILE ? 'mobile' : 'desktop'
  Notifications(
    `${viewport.width} px: the bell lights up live; the notification opens the letter; its history tells it was opened and sent`,
    async ({ portal }) => {
      const tab = await portal.open({ viewport })
      const { page } = tab
      await signIn(page)
      await chooseOrder(page, BOULANGERIE)
      await pageTitle(page, 'Tableau de bord').waitFor()
      // The letter arrives while the page stays as it is, whether the bell has read its list or opened its
      // stream yet or not: what comes between the two is sent first on the stream (Last-Event-ID).
      const before = await unreadOnServer(portal)
      // From here on, the letters' card must never fall back to its spinner: its list is read again with
      // its letters still shown (nothing jumps).
      await page.evaluate(() => {
        const w = window as unknown as { cardSpinner?: boolean }
        w.cardSpinner = false
        new MutationObserver(() => {
          if (document.body.textContent!.includes('Chargement : vos courriers…')) w.cardSpinner = true
        }).observe(document.body, { childList: true, subtree: true, characterData: true })
      })
      const sender = `Impots.gouv ${size}`
      const id = await ingest(portal, sender)
      const lit = `${before + 1} notification${before + 1 > 1 ? 's' : ''} non lue${before + 1 > 1 ? 's' : ''}`
      await page.getByRole('button', { name: lit }).waitFor({ timeout: 5000 })
      // The dashboard's letters card shows the new letter, read again from the server.
      await page.getByRole('list', { name: 'Derniers courriers' }).getByRole('link', { name: sender }).waitFor({ timeout: 5000 })
      assert.not.ok(
        await page.evaluate(() => (window as unknown as { cardSpinner?: boolean }).cardSpinner),
        'the card kept its letters while they were read again',
      )
      await page.getByRole('button', { name: lit }).click()
      const panel = page.getByRole('region', { name: 'Notifications' })
      const item = panel.getByRole('button', { name: new RegExp(`Nouveau courrier de ${sender}`) })
      await item.waitFor()
      await screenshot(page, `notifications-${size}`)
      await item.click()
      await page.waitForURL(/\/mes-courriers\/courriers/)
      const viewer = page.getByRole('region', { name: 'Aperçu du courrier' })
      await viewer.getByRole('heading', { name: sender }).waitFor()
      const history = viewer.getByRole('region', { name: 'Historique' })
      await history.getByText('Ouvert par vous').waitFor()
      await history.getByText('Reçu', { exact: true }).waitFor()
      // Sent by e-mail: the history says to whom.
      await viewer.getByRole('button', { name: 'Envoyer par e-mail' }).click()
      const dialog = page.getByRole('dialog', { name: 'Envoyer par e-mail' })
      await dialog.getByLabel('Destinataire (adresse e-mail)').fill('comptable@example.com')
      await dialog.getByRole('button', { name: 'Envoyer le courrier' }).click()
      await dialog.waitFor({ state: 'detached' })
      await history.getByText('Envoyé par e-mail à comptable@example.com par vous').waitFor()
      assert.ok(id > 0)
      await screenshot(page, `letter-history-${size}`)
      assert.is(await unreadOf(page), before, 'opened: read')
      await tab.close()
    },
  )
}

Notifications('1280 px: an operator moves a formality on; /formalites, open, shows its new step without a reload', async ({ portal }) => {
  const orderId = (await portal.orders())[BOULANGERIE]!.id
  const apiToken = await portal.apiToken()
  const created = await fetch(`${portal.url}/api-protected/legal-submissions`, {
    method: 'POST',
    headers: { apiToken, 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, kind: 'transfert-siege' }),
  })
  assert.is(created.status, 200, await created.clone().text())
  const { id } = (await created.json()) as { id: number }
  const tab = await portal.open({ viewport: DESKTOP })
  const { page } = tab
  await signIn(page)
  await chooseOrder(page, BOULANGERIE)
  await page.goto('/formalites')
  await page.getByRole('listitem', { name: 'Transfert de siège social : Reçue' }).waitFor()
  const moved = await fetch(`${portal.url}/api/operator/legal-submissions/${id}/status`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'En cours' }),
  })
  assert.is(moved.status, 200, await moved.clone().text())
  await page.getByRole('listitem', { name: 'Transfert de siège social : En cours' }).waitFor({ timeout: 5000 })
  await tab.close()
})

async function issueInvoice(portal: Portal, reference: string) {
  const orderId = (await portal.orders())[BOULANGERIE]!.id
  const pdf = await samplePdf(`Facture ${reference}`)
  const res = await fetch(`${portal.url}/api/operator/domiciliation-orders/${orderId}/invoices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      reference,
      amountExclTaxCents: 2900,
      amountInclTaxCents: 3480,
      file: `data:application/pdf;base64,${pdf.toString('base64')}`,
    }),
  })
  assert.is(res.status, 200, await res.clone().text())
}

for (const viewport of [DESKTOP, MOBILE] as Viewport[]) {
  Notifications(
    `${viewport.width} px: the billing system issues invoices; the open dashboard’s banner counts the new one, the open /factures lists it with "Payer", without a reload`,
    async ({ portal }) => {
      const apiToken = await portal.apiToken()
      const unpaid = async () =>
        ((await (await fetch(`${portal.url}/api-protected/user-unpaid-status`, { headers: { apiToken } })).json()) as { count: number })
          .count
      const tab = await portal.open({ viewport })
      const { page } = tab
      await signIn(page)
      await chooseOrder(page, BOULANGERIE)
      const banner = page.getByRole('region', { name: 'Factures impayées' })
      await banner.waitFor()
      const before = await unpaid()
      await issueInvoice(portal, `FA-E2E-${viewport.width}-1`)
      await banner.getByText(`${before + 1} factures sont impayées`).waitFor({ timeout: 5000 })
      await page.goto('/factures')
      const rows = page.getByRole('list', { name: 'Factures' })
      await rows.getByText(`N° de facture FA-E2E-${viewport.width}-1`).waitFor()
      await issueInvoice(portal, `FA-E2E-${viewport.width}-2`)
      await rows.getByText(`N° de facture FA-E2E-${viewport.width}-2`).waitFor({ timeout: 5000 })
      await page.getByRole('button', { name: `Payer la facture FA-E2E-${viewport.width}-2` }).waitFor()
      await tab.close()
    },
  )
}

Notifications(
  '360 px: the team validates the Kbis; the open Attestation et contrats shows the date, and the bell’s notification leads there',
  async ({ portal }) => {
    const contractId = (await portal.orders())[BOULANGERIE]!.contractId!
    const tab = await portal.open({ viewport: MOBILE })
    const { page } = tab
    await signIn(page)
    await chooseOrder(page, BOULANGERIE)
    await pageTitle(page, 'Tableau de bord').waitFor()
    await page.goto('/souscription/attestation-contrats')
    await page.getByText('Kbis reçu : nos équipes le vérifient, nous vous préviendrons dès sa validation.').waitFor()
    const read = await fetch(`${portal.url}/api/operator/contracts/${contractId}/kbis`, {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    })
    assert.is(read.status, 200)
    const validated = await fetch(`${portal.url}/api/operator/contracts/${contractId}/kbis-status`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json', 'if-match': read.headers.get('etag')! },
      body: JSON.stringify({ status: 'validé' }),
    })
    assert.is(validated.status, 200, await validated.clone().text())
    const status = page.getByText(/^Kbis validé par nos équipes le \d{1,2} \p{L}+ \d{4}\.$/u)
    await status.waitFor({ timeout: 5000 })
    await page.goto('/tableau-de-bord')
    await page.getByRole('button', { name: /^\d+ notifications? non lues?$/ }).click()
    await page
      .getByRole('region', { name: 'Notifications' })
      .getByRole('button', { name: /Kbis validé/ })
      .click()
    await page.waitForURL(/\/souscription\/attestation-contrats$/)
    await status.waitFor()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Télécharger mon Kbis' }).click(),
    ])
    assert.is(download.suggestedFilename(), `kbis-${contractId}.pdf`)
    assert.is((await readFile((await download.path())!)).subarray(0, 5).toString(), '%PDF-')
    await tab.close()
  },
)

Notifications.run()
