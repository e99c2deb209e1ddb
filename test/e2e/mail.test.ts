// The mail journey of issue 4 in Chromium, against the real server: Camille opens an unread letter
// and sees it in the viewer, its unread mark gone; then an operator adds a letter with
// `npm run ingest` (the server stopped: PGlite admits one process) and it shows once the portal is
// back and the page loaded again.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { DESKTOP, MOBILE, openLetters, ROOT, samplePdf, screenshot, startPortal, type Viewport } from '../util/e2e.ts'

const BOULANGERIE = 'Boulangerie des Lilas SAS'
const letters = (page: Page) => page.getByRole('listbox', { name: 'Courriers' }).getByRole('option')


const Mail = suite<{ dir: string }>('Mes courriers in Chromium')
Mail.before(async (ctx) => {
  ctx.dir = await mkdtemp(join(tmpdir(), 'portail-e2e-mail-'))
})
Mail.after(async (ctx) => {
  await rm(ctx.dir, { recursive: true, force: true })
})

for (const viewport of [DESKTOP, MOBILE] as Viewport[]) {
  Mail(`${viewport.width} px: an unread letter opens in the viewer and loses its unread mark`, async () => {
    const portal = await startPortal()
    try {
      const tab = await portal.open({ viewport })
      const { page } = tab
      await openLetters(page)
      // On a desktop the first letter is open already (and so read): take the next unread one.
      const unread = page.locator('[role="option"][data-unread="true"]').first()
      const sender = (await unread.locator('.sender').textContent())!
      const id = await unread.evaluate((el) => [...el.parentElement!.children].indexOf(el))
      await unread.click()
      const viewer = page.getByRole('region', { name: 'Aperçu du courrier' })
      const frame = viewer.getByTitle(`Courrier de ${sender}`)
      await frame.waitFor()
      assert.match((await frame.getAttribute('src'))!, /^blob:http:\/\/127\.0\.0\.1:\d+\//)
      assert.ok(await viewer.getByRole('link', { name: 'Télécharger' }).isVisible())
      await screenshot(page, `letters-${viewport === MOBILE ? 'mobile' : 'desktop'}`)
      if (viewport === MOBILE) await viewer.getByRole('button', { name: '← Retour à la liste' }).click()
      await page.waitForFunction((index) => document.querySelectorAll('[role="option"]')[index]?.getAttribute('data-unread') === 'false', id)
      // Read on the server too: it stays read after a reload.
      await page.reload()
      await letters(page).first().waitFor()
      assert.is(await letters(page).nth(id).getAttribute('data-unread'), 'false')
      await tab.close()
    } finally {
      await portal.close()
    }
  })
}

Mail('a letter added with npm run ingest appears after a reload', async (ctx) => {
  const dataDir = join(ctx.dir, 'data')
  const storageDir = join(ctx.dir, 'storage')
  const config = { dataDir, storageDir }
  let portal = await startPortal({ config })
  const orderId = (await portal.orders())[BOULANGERIE]!.id
  let tab = await portal.open()
  await openLetters(tab.page)
  assert.not.ok(await tab.page.getByText('Préfecture de police').count())
  await tab.close()
  await portal.close()

  const pdf = join(ctx.dir, 'scan.pdf')
  await writeFile(pdf, await samplePdf())
  const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'ingest', '--', '--order', String(orderId), '--sender', 'Préfecture de police', '--kind', 'recommandé', pdf],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, STORAGE_DIR: storageDir, LOG_LEVEL: 'silent' } })
  assert.match(stdout, 'Courrier n° ')

  portal = await startPortal({ config })
  try {
    tab = await portal.open()
    await openLetters(tab.page)
    const first = letters(tab.page).first()
    assert.match((await first.textContent())!, 'Préfecture de police')
    assert.match((await first.textContent())!, 'Recommandé')
    await tab.page.getByRole('region', { name: 'Aperçu du courrier' }).getByTitle('Courrier de Préfecture de police').waitFor()
    await tab.close()
  } finally {
    await portal.close()
  }
})

Mail.run()
