// The mail journey in Chromium, against the real server: Camille opens an unread letter
// and sees it in the viewer, its unread mark gone; then an operator adds a letter with
// `npm run ingest` (the server stopped: PGlite admits one process) and it shows once the portal is
// back and the page loaded again.
// The accounting export: the lists and the send button on a phone and a desktop.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import {
  DESKTOP,
  isMobile,
  MOBILE,
  networkIdle,
  openLetters,
  portalSuite,
  ROOT,
  samplePdf,
  screenshot,
  startPortal,
  type Viewport,
} from '../../util/e2e.ts'

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
      await page.waitForFunction(
        (index) => document.querySelectorAll('[role="option"]')[index]?.getAttribute('data-unread') === 'false',
        id,
      )
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
  const { stdout } = await promisify(execFile)(
    'npm',
    ['run', '--silent', 'ingest', '--', '--order', String(orderId), '--sender', 'Préfecture de police', '--kind', 'recommandé', pdf],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, STORAGE_DIR: storageDir, LOG_LEVEL: 'silent' } },
  )
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

// The accounting export (PRODUCT.md): pick an invoice and a letter, send them to the accounting inbox. On a phone the
// lists take the page's scroll (no box cutting its last letter) and the button stays on screen, never over the box
// that Tab reaches.
const Export = portalSuite('Export comptable in Chromium')
for (const viewport of [MOBILE, DESKTOP] as Viewport[]) {
  Export(`${viewport.width} px: an invoice and the last letter reach the accounting inbox`, async ({ portal }) => {
    const tab = await portal.open({ viewport })
    const { page } = tab
    await openLetters(page)
    await page.goto('/mes-courriers/export-comptable')
    await networkIdle(page)
    const to = `compta-${viewport.width}@example.com`
    await page.getByLabel('Adresse de votre boîte comptable (Dext)').fill(to)
    const invoices = page.getByRole('group', { name: 'Factures' }).getByRole('checkbox')
    const letterBoxes = page.getByRole('group', { name: 'Courriers' }).getByRole('checkbox')
    assert.ok((await letterBoxes.count()) > 20, 'the bakery has many letters')
    await invoices.first().check()
    const last = letterBoxes.last()
    const send = page.getByRole('button', { name: 'Envoyer 1 pièce à ma comptabilité' })
    if (isMobile(viewport)) {
      // Every box and « Tout sélectionner » reached by Tab, from the address to the last letter, shows above the bar
      // (nothing covers it, nor the rest of a box's row), and the button stays on screen all the way.
      const count = (await invoices.count()) + (await letterBoxes.count()) + 2
      await page.getByLabel('Adresse de votre boîte comptable (Dext)').focus()
      for (let i = 0; i < count; i += 1) {
        await page.keyboard.press('Tab')
        const seen = await page.evaluate(() => {
          const focused = document.activeElement as HTMLElement
          const { left, top, width, height } = focused.getBoundingClientRect()
          const bar = document.querySelector('button[type="submit"]')!.parentElement!.getBoundingClientRect()
          const row = focused.matches('input[type="checkbox"]')
            ? focused.closest('label')!
            : focused.matches('fieldset button')
              ? focused
              : null
          return (
            row !== null &&
            document.elementFromPoint(left + width / 2, top + height / 2) === focused &&
            row.getBoundingClientRect().bottom <= bar.top
          )
        })
        assert.ok(
          seen,
          `l’élément n° ${i + 1} atteint par Tab (une case ou « Tout sélectionner ») est visible, sa ligne entière au-dessus du bouton`,
        )
        const button = (await send.boundingBox())!
        assert.ok(button.y >= 0 && button.y + button.height <= viewport.height, `le bouton reste à l’écran (élément n° ${i + 1})`)
      }
      assert.ok(await last.evaluate((box) => box === document.activeElement))
      // No box scrolling inside the page: the letters' list is as tall as its letters.
      assert.ok(
        await page
          .getByRole('group', { name: 'Courriers' })
          .evaluate((list) => [list, ...list.querySelectorAll('div')].every((box) => box.scrollHeight <= box.clientHeight + 1)),
      )
      await page.keyboard.press('Space')
    } else {
      // On a desktop the two lists sit side by side, each scrolling in its own box under its legend (never over it).
      const box = page.getByRole('group', { name: 'Courriers' }).locator('> div')
      assert.ok(await box.evaluate((items) => items.scrollHeight > items.clientHeight))
      await box.evaluate((items) => {
        items.scrollTop = 200
      })
      assert.ok(
        await page.getByRole('group', { name: 'Courriers' }).evaluate((list) => {
          const legend = list.querySelector('legend')!.getBoundingClientRect()
          return document.elementFromPoint(legend.left + 5, legend.top + legend.height / 2) === list.querySelector('legend')
        }),
        'la légende « Courriers » reste lisible quand sa liste défile',
      )
      await last.check()
    }
    assert.ok(await last.isChecked())
    await screenshot(page, `accounting-export-${isMobile(viewport) ? 'mobile' : 'desktop'}`)
    await page.getByRole('button', { name: 'Envoyer 2 pièces à ma comptabilité' }).click()
    await page.getByText(`2 pièces envoyées à ${to}.`).waitFor()
    const mail = await portal.server.deps.db
      .selectFrom('outbox')
      .select(['attachments'])
      .where('to_address', '=', to)
      .executeTakeFirstOrThrow()
    assert.is((mail.attachments as string[]).length, 2)
    await tab.close()
  })
}
Export.run()
