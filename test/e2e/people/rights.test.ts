// A person's rights end to end in Chromium at 1280 px, as a new user would take it: the legal pages reached from /login and from
// the sidebar; Camille prepares « Mes données », follows the e-mailed link and downloads a ZIP that holds exactly the
// letters the API lists for her orders, byte for byte, and the machine-readable files; Sophie, whose domiciliation runs,
// is told in French why her account cannot be closed; a person whose only domiciliation is over closes theirs, can no
// longer sign in, and the provider still lists the order's invoices.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import * as assert from 'uvu/assert'
import type { Page } from 'playwright-core'
import { parisDay } from '../../../server/lib/time.ts'
import { chooseOrder, DEMO_PASSWORD, DESKTOP, pageTitle, portalSuite, signIn, type Portal } from '../../util/e2e.ts'
import { freshCode } from '../../util/e2e-backoffice.ts'

const run = promisify(execFile)
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** The portal's answer to a customer's or an operator's call, as bytes. */
async function bytesOf(portal: Portal, path: string, headers: Record<string, string>): Promise<Buffer> {
  const res = await fetch(`${portal.url}${path}`, { headers })
  assert.is(res.status, 200, `${path}: ${res.status}`)
  return Buffer.from(await res.arrayBuffer())
}

async function operatorToken(portal: Portal): Promise<string> {
  const post = async (path: string, body: object) => {
    const res = await fetch(`${portal.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    assert.is(res.status, 200, `${path}: ${res.status}`)
    return res.json() as Promise<Record<string, string>>
  }
  const { ticket } = await post('/api/operator-auth/password', { email: 'operateur@example.com', password: DEMO_PASSWORD })
  return (await post('/api/operator-auth/code', { ticket, code: await freshCode('operateur@example.com') })).token!
}

async function openPersonalInfo(page: Page) {
  await page.goto('/informations-personnelles')
  await pageTitle(page, 'Informations personnelles').waitFor()
}

/** « Fermer mon compte »: what goes and stays read, then the password, then the last button. */
async function askToCloseAccount(page: Page) {
  await page.getByRole('button', { name: 'Fermer mon compte' }).click()
  await page.getByRole('dialog', { name: 'Fermer votre compte ?' }).getByRole('button', { name: 'Continuer' }).click()
  const confirm = page.getByRole('dialog', { name: 'Confirmez avec votre mot de passe' })
  await confirm.getByLabel('Mot de passe', { exact: true }).fill(DEMO_PASSWORD)
  await confirm.getByRole('button', { name: 'Fermer définitivement mon compte' }).click()
}

const Rights = portalSuite('Les droits de chacun : pages légales, « Mes données », fermer son compte')

Rights('1280 px: the legal pages from /login and from the sidebar', async ({ portal }) => {
  const tab = await portal.open({ viewport: DESKTOP })
  const { page } = tab
  await page.goto('/login')
  await page.getByRole('navigation', { name: 'Informations légales' }).getByRole('link', { name: 'Mentions légales' }).click()
  await page.getByRole('heading', { name: 'Mentions légales', level: 1 }).waitFor()
  await signIn(page)
  await chooseOrder(page, 'Boulangerie des Lilas SAS')
  await pageTitle(page, 'Tableau de bord').waitFor()
  await page.getByRole('navigation', { name: 'Informations légales' }).getByRole('link', { name: 'Politique de confidentialité' }).click()
  await page.getByRole('heading', { name: 'Politique de confidentialité', level: 1 }).waitFor()
  await tab.close()
})

Rights(
  '1280 px: Camille prepares « Mes données », follows the e-mailed link; the ZIP holds her letters, byte for byte',
  async ({ portal }) => {
    const tab = await portal.open({ viewport: DESKTOP })
    const { page } = tab
    await signIn(page)
    await chooseOrder(page, 'Boulangerie des Lilas SAS')
    await pageTitle(page, 'Tableau de bord').waitFor()
    await openPersonalInfo(page)
    const section = page.getByRole('region', { name: 'Mes données' })
    await section.getByRole('button', { name: 'Préparer mes données' }).click()
    // The e-mail: its link, followed in the browser.
    const { db } = portal.server.deps
    let link: string | undefined
    for (const until = Date.now() + 120_000; !link; await page.waitForTimeout(500)) {
      assert.ok(Date.now() < until, 'the e-mail came within 120 s')
      const mail = await db
        .selectFrom('outbox')
        .select('text')
        .where('to_address', '=', 'demo@example.com')
        .where('subject', 'like', '%vos données sont prêtes')
        .executeTakeFirst()
      link = mail?.text.match(/https?:\/\/\S+#mes-donnees/)?.[0]
    }
    const { pathname, hash } = new URL(link)
    await page.goto(`${pathname}${hash}`)
    const download = page.waitForEvent('download')
    await page.getByRole('region', { name: 'Mes données' }).getByRole('button', { name: 'Télécharger mes données' }).click()
    const dir = await mkdtemp(join(tmpdir(), 'portail-mes-donnees-'))
    try {
      const zip = join(dir, 'mes-donnees.zip')
      await (await download).saveAs(zip)
      const names = (await run('unzip', ['-Z1', zip])).stdout.split('\n').filter(Boolean)
      const letters = names.filter((name) => name.startsWith('Courrier/') && name.endsWith('.pdf'))
      // As many letters as the API lists for every order she sees, the same bytes.
      const headers = { apiToken: await portal.apiToken() }
      const listed = JSON.parse((await bytesOf(portal, '/api-protected/documents', headers)).toString()) as { id: number }[]
      assert.ok(listed.length > 0)
      assert.is(letters.length, listed.length)
      const fromApi = await Promise.all(
        listed.map(async ({ id }) => sha256(await bytesOf(portal, `/api-protected/documents/${id}/file`, headers))),
      )
      const fromZip = await Promise.all(
        letters.map(async (name) =>
          sha256((await run('unzip', ['-p', zip, name], { encoding: 'buffer', maxBuffer: 64 * 2 ** 20 })).stdout),
        ),
      )
      assert.equal(fromZip.sort(), fromApi.sort())
      // The machine-readable files: JSON and CSV, her account in them.
      assert.ok(names.includes('Données/donnees.json'), names.join(', '))
      assert.ok(names.some((name) => name.startsWith('Données/') && name.endsWith('.csv')))
      const data = (await run('unzip', ['-p', zip, 'Données/donnees.json'], { maxBuffer: 64 * 2 ** 20 })).stdout
      assert.match(data, 'demo@example.com')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    await tab.close()
  },
)

Rights('1280 px: Sophie, whose domiciliation runs, is told in French why her account cannot be closed', async ({ portal }) => {
  const tab = await portal.open({ viewport: DESKTOP })
  const { page } = tab
  tab.allow(/status of 409/)
  await signIn(page, 'solo@example.com')
  await pageTitle(page, 'Tableau de bord').waitFor()
  await openPersonalInfo(page)
  await askToCloseAccount(page)
  const refused = page.getByRole('dialog', { name: 'Votre compte ne peut pas encore être fermé' })
  assert.match((await refused.getByRole('alert').textContent())!, /^Votre domiciliation .* est active/)
  await refused.getByRole('button', { name: 'J’ai compris' }).click()
  // Still signed in.
  await pageTitle(page, 'Informations personnelles').waitFor()
  await tab.close()
})

Rights('1280 px: a person whose domiciliation is over closes their account; they cannot sign in; the invoices stay', async ({ portal }) => {
  const { db } = portal.server.deps
  // Studio Nuage SAS, associe@example.com's own domiciliation, terminated yesterday.
  const studio = (await portal.orders('associe@example.com'))['Studio Nuage SAS']!
  const owner = await db.selectFrom('users').select('id').where('email', '=', 'associe@example.com').executeTakeFirstOrThrow()
  const yesterday = parisDay(new Date(Date.now() - 24 * 3600_000))
  await db
    .insertInto('termination_requests')
    .values({ order_id: studio.id, user_id: owner.id, reason: 'Cessation d’activité', date: yesterday, comment: null })
    .execute()
  const operator = { authorization: `Bearer ${await operatorToken(portal)}` }
  const invoicesBefore = JSON.parse((await bytesOf(portal, `/api/backoffice/orders/${studio.id}`, operator)).toString()).invoices
  assert.ok(invoicesBefore.length > 0, 'the order has invoices')

  const tab = await portal.open({ viewport: DESKTOP })
  const { page } = tab
  await signIn(page, 'associe@example.com')
  await chooseOrder(page, 'Studio Nuage SAS')
  await pageTitle(page, 'Tableau de bord').waitFor()
  await openPersonalInfo(page)
  await askToCloseAccount(page)
  await page.waitForURL((url) => url.pathname === '/login')
  // The address and the password open nothing any more.
  tab.allow(/status of 401/)
  await signIn(page, 'associe@example.com')
  await page.getByRole('alert').filter({ hasText: 'Identifiants incorrects' }).waitFor()
  // The provider still lists the order's invoices.
  const invoicesAfter = JSON.parse((await bytesOf(portal, `/api/backoffice/orders/${studio.id}`, operator)).toString()).invoices
  assert.equal(invoicesAfter, invoicesBefore)
  await tab.close()
})

Rights.run()
