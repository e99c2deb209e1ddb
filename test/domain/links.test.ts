// The e-mails' links kept across a sign-in (server/contract/rules/links.ts): a portal path, and the order it names.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { isPortalPath, linkedOrderId } from '../../server/contract/rules/links.ts'
import { letterPath } from '../../server/contract/rules/mail.ts'

const Links = suite('e-mail links: a portal path, its order')

Links('a path of the portal is one; another site, the API, the back office or an odd character is not', () => {
  for (const path of [letterPath(2, 24), '/mes-echanges/12', '/formalites', '/informations-personnelles#mes-donnees', '/apiculture'])
    assert.ok(isPortalPath(path), path)
  for (const path of [
    '',
    'mes-courriers',
    '//evil.example/mes-courriers',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/api',
    '/api/login',
    '/api-protected/documents',
    '/api/docs',
    '/operateur',
    '/operateur/clients',
    '/health',
    '/assets/main.js',
    '/mes-courriers\r\n//evil',
    '/mes courriers',
  ])
    assert.not.ok(isPortalPath(path), JSON.stringify(path))
})

Links('the order a link names: ?domiciliation= as a letter’s link carries it, or ?order=; nothing else', () => {
  assert.is(linkedOrderId(letterPath(2, 24)), 2)
  assert.is(linkedOrderId('/mes-echanges/12?order=7'), 7)
  assert.is(linkedOrderId('/mes-echanges/12?order=7#fin'), 7)
  for (const path of [
    '/mes-echanges/12',
    '/factures?annee=2025',
    '/x?domiciliation=0',
    '/x?domiciliation=-3',
    '/x?order=2.5',
    '/x?order=abc',
    '/x#?order=3',
  ])
    assert.is(linkedOrderId(path), null, path)
})

Links.run()
