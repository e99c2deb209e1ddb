// What the request log keeps: the secret of a link is masked (server/app.ts, loggableUrl). Why: whoever
// read the logs could take an invitation from its line (create the account and reach the order's mail).
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { loggableUrl } from '../../server/app.ts'
import { buildTestApp, call, login } from '../util/server.ts'

test('the invitation and password links’ tokens are masked, the rest of the URL kept', () => {
  assert.is(loggableUrl('/api/invitations/AbC-123_x'), '/api/invitations/[masqué]')
  assert.is(loggableUrl('/api/invitations/AbC-123_x/account'), '/api/invitations/[masqué]/account')
  assert.is(loggableUrl('/api-protected/invitations/AbC/accept'), '/api-protected/invitations/[masqué]/accept')
  assert.is(loggableUrl('/invitation/AbC?x=1'), '/invitation/[masqué]?x=1')
  assert.is(loggableUrl('/set-password/AbC'), '/set-password/[masqué]')
  assert.is(loggableUrl('/api/email-change-reverts/AbC-123_x'), '/api/email-change-reverts/[masqué]')
  assert.is(loggableUrl('/retablir-adresse/AbC?x=1'), '/retablir-adresse/[masqué]?x=1')
  assert.is(loggableUrl('/api-protected/documents?orderId=3'), '/api-protected/documents?orderId=3')
})

test('an invitation opened, used and its page loaded: the token is in no log line', async () => {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const t = await buildTestApp({ logger: pino({ level: 'info' }, stream) })
  try {
    const camille = await login(t.app)
    const orders = (await call(t.app, camille, 'GET', '/api-protected/my-domiciliation-orders')).json() as {
      id: number
      isShareOrder: boolean
    }[]
    const own = orders.find((o) => !o.isShareOrder)!
    assert.is(
      (
        await call(t.app, camille, 'POST', `/api-protected/domiciliation-orders/${own.id}/invite`, {
          emails: ['nouvelle.personne@example.com'],
        })
      ).statusCode,
      200,
    )
    const token = t.mails.at(-1)!.link!.split('/invitation/')[1]!
    assert.ok(token.length > 10)
    assert.is((await t.app.inject({ method: 'GET', url: `/api/invitations/${token}` })).statusCode, 200)
    await t.app.inject({ method: 'GET', url: `/invitation/${token}` })
    await t.app.inject({ method: 'GET', url: `/set-password/${token}` })
    const account = await t.app.inject({
      method: 'POST',
      url: `/api/invitations/${token}/account`,
      payload: { firstname: 'Nouvelle', lastname: 'Personne', password: 'trois mots au hasard' },
    })
    assert.is(account.statusCode, 200, account.body)
    const log = lines.join('')
    assert.match(log, '/api/invitations/[masqué]/account', 'the requests are logged')
    assert.not.ok(log.includes(token), 'the token in the logs')
  } finally {
    await t.close()
  }
})

test('an address change undone with its link, its page loaded: the token is in no log line', async () => {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const t = await buildTestApp({ logger: pino({ level: 'info' }, stream) })
  try {
    const camille = await login(t.app)
    assert.is((await call(t.app, camille, 'PUT', '/api-protected/users/me/email', { newEmail: 'ailleurs@example.com' })).statusCode, 200)
    const token = t.mails.at(-1)!.link!.split('/retablir-adresse/')[1]!
    assert.ok(token.length > 10)
    await t.app.inject({ method: 'GET', url: `/retablir-adresse/${token}` })
    assert.is((await t.app.inject({ method: 'POST', url: `/api/email-change-reverts/${token}` })).statusCode, 200)
    const log = lines.join('')
    assert.match(log, '/api/email-change-reverts/[masqué]', 'the requests are logged')
    assert.not.ok(log.includes(token), 'the token in the logs')
  } finally {
    await t.close()
  }
})

test.run()
