// Issue 14 in Chromium: a word found only inside a letter's text ("injonction", in the Greffe's
// letter of the demo data, neither in a sender nor in a kind) is found by the letters' search box,
// highlighted, and the result opens the letter.
import * as assert from 'uvu/assert'
import type { Page } from 'playwright-core'
import { DESKTOP, isMobile, MOBILE, openLetters, portalSuite, screenshot, type Viewport } from '../../util/e2e.ts'

const GREFFE = 'Greffe du tribunal de commerce de Paris'
const WORD = 'injonction'

const Search = portalSuite('Mes courriers: search in the text of the letters', { prepared: true })

for (const viewport of [MOBILE, DESKTOP] as Viewport[]) {
  Search(`${viewport.width} px: a word found only inside a letter, highlighted; the result opens it`, async ({ portal }) => {
    const tab = await portal.open({ viewport })
    const { page } = tab
    await openLetters(page)
    const list = page.getByRole('listbox', { name: 'Courriers' })
    assert.is(await list.getByText(new RegExp(WORD, 'i')).count(), 0, 'no sender nor kind holds the word')
    const searches: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/documents/search')) searches.push(new URL(request.url()).searchParams.get('q')!)
    })
    // Typed key by key: the server is asked once the typing pauses, from three characters.
    await page.getByRole('searchbox', { name: /Rechercher/ }).pressSequentially(WORD, { delay: 30 })
    const results = page.getByRole('list', { name: `Courriers contenant « ${WORD} »` })
    await results.waitFor()
    assert.ok(searches.length >= 1 && searches.length < WORD.length - 2, `debounced: ${searches.join(', ')}`)
    assert.is(searches.at(-1), WORD)
    const greffe = results.getByRole('listitem').filter({ hasText: GREFFE }).first()
    await greffe.waitFor()
    const marked = await greffe.locator('mark').allTextContents()
    assert.ok(
      marked.some((text) => text.toLowerCase().includes(WORD)),
      `highlighted: ${marked.join(', ')}`,
    )
    await screenshot(page, `letters-search-${isMobile(viewport) ? 'mobile' : 'desktop'}`)
    // Keyboard: the result is a button reached with Tab, opened with Enter.
    await greffe.getByRole('button').focus()
    await page.keyboard.press('Enter')
    await page.getByRole('region', { name: 'Aperçu du courrier' }).getByRole('heading', { name: GREFFE }).waitFor()
    // A word no letter holds says so.
    if (isMobile(viewport)) await page.getByRole('button', { name: '← Retour à la liste' }).click()
    await page.getByRole('searchbox', { name: /Rechercher/ }).fill('zzzqqq')
    await page.getByText('Aucun courrier ne contient « zzzqqq »').waitFor()
    await tab.close()
  })
}

// The server allows an 80-character folder name and a 200-character search; a sender is whatever the operator typed.
const LONG_FOLDER = 'Impôts et taxes — déclarations de TVA, CFE et impôt sur les sociétés 2025-2026'
const LONG_SENDER = 'SociétéCivileImmobilièreDesGrandsBoulevardsParisiensEtAssociés'.repeat(2)
const LONG_WORD = 'anticonstitutionnellement'.repeat(6)

/** How far the page reaches beyond the screen, and the rightmost edge of the controls in the content. */
const overflow = (page: Page) =>
  page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    right: Math.max(
      0,
      ...[...document.querySelectorAll('main select, main input, main button, main h3, main p')].map((e) =>
        Math.round(e.getBoundingClientRect().right),
      ),
    ),
  }))

for (const viewport of [MOBILE, DESKTOP] as Viewport[]) {
  Search(
    `${viewport.width} px: a long folder name, a long sender and a long search never make the page wider than the screen`,
    async ({ portal }) => {
      const tab = await portal.open({ viewport })
      const { page } = tab
      // The first folder and the first letter get long names on their way from the server.
      await page.route(/\/api-protected\/folders(\?|$)/, async (route) => {
        const response = await route.fetch()
        const folders = (await response.json()) as { name: string }[]
        assert.ok(folders.length > 0, 'the demo order has a folder')
        folders[0]!.name = LONG_FOLDER
        await route.fulfill({ response, json: folders })
      })
      await page.route(/\/api-protected\/documents(\?|$)/, async (route) => {
        const response = await route.fetch()
        const letters = (await response.json()) as { sender: string }[]
        letters[0]!.sender = LONG_SENDER
        await route.fulfill({ response, json: letters })
      })
      await openLetters(page)
      const problems: string[] = []
      const check = async (where: string) => {
        const { page: beyond, right } = await overflow(page)
        if (beyond > 0) problems.push(`${where}: the page is ${beyond} px wider than the screen`)
        if (right > viewport.width) problems.push(`${where}: a control reaches ${right} px`)
      }
      await check('the list')
      if (isMobile(viewport)) await page.getByRole('listbox', { name: 'Courriers' }).getByRole('option').first().click()
      const viewer = page.getByRole('region', { name: 'Aperçu du courrier' })
      await viewer.getByRole('heading', { name: LONG_SENDER }).waitFor()
      await viewer
        .getByRole('combobox', { name: 'Classer dans un dossier' })
        .getByRole('option', { name: LONG_FOLDER })
        .waitFor({ state: 'attached' })
      await check('the viewer')
      if (isMobile(viewport)) await page.getByRole('button', { name: '← Retour à la liste' }).click()
      await page.getByRole('combobox', { name: 'Dossier', exact: true }).selectOption({ label: LONG_FOLDER })
      await check('the folder filter')
      await page.getByRole('combobox', { name: 'Dossier', exact: true }).selectOption({ label: 'Tous les dossiers' })
      await page.getByRole('searchbox', { name: /Rechercher/ }).fill(LONG_WORD)
      await page.getByText(`Aucun courrier ne contient « ${LONG_WORD} »`).waitFor()
      await check('a long search')
      await tab.close()
      assert.equal(problems, [], problems.join('\n'))
    },
  )
}

Search.run()
