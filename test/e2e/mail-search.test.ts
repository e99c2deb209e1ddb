// Issue 14 in Chromium: a word found only inside a letter's text ("injonction", in the Greffe's
// letter of the demo data, neither in a sender nor in a kind) is found by the letters' search box,
// highlighted, and the result opens the letter.
import * as assert from 'uvu/assert'
import { DESKTOP, isMobile, MOBILE, openLetters, portalSuite, screenshot, type Viewport } from '../util/e2e.ts'

const GREFFE = 'Greffe du tribunal de commerce de Paris'
const WORD = 'injonction'


const Search = portalSuite('Mes courriers: search in the text of the letters')

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
    assert.ok(marked.some((text) => text.toLowerCase().includes(WORD)), `highlighted: ${marked.join(', ')}`)
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

Search.run()
