// Issue 14 in Chromium, against the real server: on a browser that draws no PDF inside a page (Chrome
// and Firefox for Android; `navigator.pdfViewerEnabled` forced to false here), a letter shows as page
// images, fetched with the token, with "Page 1 sur 2", the zoom buttons and the download.
// (The search journey, which needs the letters' text, is test/e2e/mail/mail-search.test.ts.)
import * as assert from 'uvu/assert'
import { DESKTOP, isMobile, MOBILE, openLetters, portalSuite, screenshot, type Viewport } from '../../util/e2e.ts'

const GREFFE = 'Greffe du tribunal de commerce de Paris'

const Images = portalSuite('Mes courriers without a PDF viewer', { prepared: true })

for (const viewport of [MOBILE, DESKTOP] as Viewport[]) {
  Images(`${viewport.width} px: the letter's pages as images, lazily, with the page count, zoom and download`, async ({ portal }) => {
    const tab = await portal.open({ viewport })
    const { page } = tab
    // As a string: tsx would wrap the getter in a helper the page does not have.
    await page.addInitScript({ content: "Object.defineProperty(Navigator.prototype, 'pdfViewerEnabled', { get: () => false })" })
    // Every height page 1's frame takes, frame by frame: its image, until decoded, must keep the
    // sheet's height, or page 2 jumps up into view for a frame and is fetched (a flake seen in CI).
    await page.addInitScript({
      content: `window.__page1Heights = [];
      const sizes = new ResizeObserver((entries) => {
        for (const entry of entries) if (entry.target.isConnected) window.__page1Heights.push(Math.round(entry.contentRect.height));
      });
      const seen = new WeakSet();
      new MutationObserver(() => {
        for (const figure of document.querySelectorAll('figure[data-page="1"]')) if (!seen.has(figure)) { seen.add(figure); sizes.observe(figure); }
      }).observe(document, { childList: true, subtree: true });`,
    })
    const pageCalls: string[] = []
    page.on('request', (request) => {
      if (/\/documents\/\d+\/pages\/\d+$/.test(request.url())) pageCalls.push(request.url())
    })
    await openLetters(page)
    // The Greffe's letter has two pages.
    await page.getByRole('listbox', { name: 'Courriers' }).getByRole('option').filter({ hasText: GREFFE }).first().click()
    const viewer = page.getByRole('region', { name: 'Aperçu du courrier' })
    await viewer.getByRole('heading', { name: GREFFE }).waitFor()
    assert.is(await viewer.locator('iframe').count(), 0, 'no embedded PDF')
    const first = viewer.getByRole('img', { name: `Page 1 sur 2 du courrier de ${GREFFE}` })
    await first.waitFor()
    assert.match((await first.getAttribute('src'))!, /^blob:http:\/\/127\.0\.0\.1:\d+\//)
    // The image was drawn: the browser decoded it, about as wide as the server renders it.
    await page.waitForFunction(
      (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 1000,
      await first.elementHandle(),
    )
    assert.ok(await viewer.getByText('Page 1 sur 2', { exact: true }).isVisible())
    assert.ok(await viewer.getByText('Page 2 sur 2', { exact: true }).count())
    // Fetched with the token in a header, never in the address.
    assert.ok(pageCalls.length >= 1 && pageCalls.every((url) => !/token/i.test(url)))
    const second = viewer.getByRole('img', { name: `Page 2 sur 2 du courrier de ${GREFFE}` })
    if (isMobile(viewport)) {
      // On a phone the second page is below the fold: fetched only once scrolled to.
      assert.is(pageCalls.filter((url) => url.endsWith('/pages/2')).length, 0, 'page 2 not fetched before it shows')
    }
    const heights = await page.evaluate(() => (window as unknown as { __page1Heights: number[] }).__page1Heights)
    assert.ok(heights.length >= 1 && Math.min(...heights) > 300, `page 1 never shorter than a sheet: ${heights.join(', ')} px`)
    await viewer.locator('figure[data-page="2"]').scrollIntoViewIfNeeded()
    await second.waitFor()
    assert.is(pageCalls.filter((url) => url.endsWith('/pages/2')).length, 1)
    await viewer.locator('figure[data-page="1"]').scrollIntoViewIfNeeded()
    const width = async () => (await first.boundingBox())!.width
    const before = await width()
    await viewer.getByRole('button', { name: 'Zoom +' }).click()
    await page.waitForFunction(([img, w]) => (img as HTMLElement).getBoundingClientRect().width > (w as number) * 1.4, [
      await first.elementHandle(),
      before,
    ] as const)
    await viewer.getByRole('button', { name: 'Zoom −' }).click()
    await page.waitForFunction(([img, w]) => Math.abs((img as HTMLElement).getBoundingClientRect().width - (w as number)) < 2, [
      await first.elementHandle(),
      before,
    ] as const)
    const download = viewer.getByRole('link', { name: 'Télécharger' })
    await page.waitForFunction((a) => (a as HTMLAnchorElement).href.startsWith('blob:'), await download.elementHandle())
    await viewer.getByRole('heading', { name: GREFFE }).scrollIntoViewIfNeeded()
    await screenshot(page, `letter-images-${isMobile(viewport) ? 'mobile' : 'desktop'}`)
    await tab.close()
  })
}

Images.run()
