import { startPortal, openLetters, MOBILE, networkIdle } from '../test/util/e2e.ts'
const routes = '/souscription/mes-abonnements /souscription/attestation-contrats /moyen-de-paiement /factures /mes-reunions /suivi-comptable/tresorerie /suivi-comptable/formalite-juridique /suivi-comptable/simulateur-tva /formalites /gestion-de-mon-entreprise /mes-courriers/reexpeditions /mes-courriers/colis /mes-courriers/mes-dossiers /informations-personnelles /mes-collaborateurs /mes-representants /tableau-de-bord /formalites-juridique /suivi-comptable/obligations-juridiques'.split(' ')
const portal = await startPortal()
try {
  const tab = await portal.open({ viewport: MOBILE })
  const { page } = tab
  await openLetters(page)
  for (const route of routes) {
    await page.goto(route)
    await networkIdle(page).catch(() => {})
    await page.waitForTimeout(300)
    const name = route.replace(/\//g, '_')
    const info = await page.evaluate(() => ({ h: document.documentElement.scrollHeight, w: document.documentElement.scrollWidth, title: document.querySelector('h1')?.textContent }))
    console.log(route, JSON.stringify(info))
    await page.screenshot({ path: `/tmp/walk/${name}.png`, fullPage: true })
  }
} finally { await portal.close() }
