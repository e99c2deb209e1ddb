// The keeper of work that outlives its page (src/wiring/kept.ts), with the real accounting export machine and a real
// session actor: kept while it works, its end told when no page shows it, stopped for anyone but the person it works for.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor, fromPromise } from 'xstate'
import type { AuthUser } from '../../server/contract/session.ts'
import { accountingExportMachine, type AccountingExportContext } from '../../src/machines/mail/accountingExport.machine.ts'
import { sessionMachine, type PortalStart } from '../../src/machines/session/session.machine.ts'
import { keeperOf, type KeptLogic } from '../../src/wiring/kept.ts'
import * as F from '../util/fixtures.ts'
import { Deferreds, flush } from '../util/paths.ts'

const other: AuthUser = { ...F.authUser, id: F.authUser.id + 1, apiToken: 'tok_other' }

function setupKeeper() {
  const session = createActor(
    sessionMachine.provide({
      actors: { loadPortal: fromPromise(() => new Promise<PortalStart>(() => {})) }, // the portal never loads: not needed here
    }),
    { input: { storedUser: F.authUser } },
  )
  session.start()
  const deferreds = new Deferreds()
  const ended: Pick<AccountingExportContext, 'sent' | 'failed'>[] = []
  const kept: KeptLogic<typeof accountingExportMachine> = {
    logic: accountingExportMachine.provide({ actors: { sendDext: deferreds.actor() } }),
    running: (s) => s.hasTag('busy'),
    endedUnseen: (s) => void ended.push({ sent: s.context.sent, failed: s.context.failed }),
  }
  const keeper = keeperOf(session)
  const take = () => keeper.take('export', kept, { email: 'factures@dext.example.com', orderId: 2 })
  return { session, deferreds, ended, keeper, take }
}

/** A page that shows the export and sends one letter. */
async function sendOne(keeper: ReturnType<typeof setupKeeper>['keeper'], actor: ReturnType<ReturnType<typeof setupKeeper>['take']>) {
  const detach = keeper.attach('export', actor)
  actor.send({ type: 'export.toggle', item: { kind: 'document', id: 21 } })
  actor.send({ type: 'export.submit' })
  await flush()
  return detach
}

const Kept = suite('wiring/kept: work that outlives its page')

Kept('left while it works: kept, its end told once, its result waiting for the page; seen, the next page starts afresh', async () => {
  const { deferreds, ended, keeper, take } = setupKeeper()
  const actor = take()
  const detach = await sendOne(keeper, actor)
  detach()
  assert.is(take(), actor, 'the page back: the same export, under way')
  deferreds.settle('sendDext', { output: { sent: 1, failed: [], message: 'ok' } })
  await flush()
  assert.equal(ended, [{ sent: 1, failed: [] }])
  assert.is(actor.getSnapshot().status, 'active')
  assert.is(take(), actor, 'its result, not seen yet')
  keeper.attach('export', actor)()
  const next = take()
  assert.is.not(next, actor, 'seen: a new export')
  assert.is(actor.getSnapshot().status, 'stopped')
  assert.ok(next.getSnapshot().matches('editing'))
})

Kept('ended while its page shows it: nothing to tell', async () => {
  const { deferreds, ended, keeper, take } = setupKeeper()
  const actor = take()
  await sendOne(keeper, actor)
  deferreds.settle('sendDext', { output: { sent: 1, failed: [], message: 'ok' } })
  await flush()
  assert.ok(actor.getSnapshot().matches('done'))
  assert.equal(ended, [])
})

Kept('the same page mounted again at once (StrictMode): the export it holds is kept, not stopped', () => {
  const { keeper, take } = setupKeeper()
  const actor = take()
  keeper.attach('export', actor)()
  keeper.attach('export', actor)
  assert.is(take(), actor)
  assert.is(actor.getSnapshot().status, 'active')
})

for (const [how, leave] of [
  ['a sign-out', (session: ReturnType<typeof setupKeeper>['session']) => session.send({ type: 'session.logout' })],
  ['an expired session', (session: ReturnType<typeof setupKeeper>['session']) => session.send({ type: 'session.expired' })],
  [
    'another person signing in',
    (session: ReturnType<typeof setupKeeper>['session']) => session.send({ type: 'session.signedIn', user: other }),
  ],
  ['the session stopped (a closed tab)', (session: ReturnType<typeof setupKeeper>['session']) => session.stop()],
] as const) {
  Kept(`${how} stops it: its call is aborted, nothing told, and the next person gets a new export`, async () => {
    const { session, deferreds, ended, keeper, take } = setupKeeper()
    const actor = take()
    ;(await sendOne(keeper, actor))()
    leave(session)
    assert.is(actor.getSnapshot().status, 'stopped')
    deferreds.settle('sendDext', { output: { sent: 1, failed: [], message: 'ok' } })
    await flush()
    assert.equal(ended, [])
    if (session.getSnapshot().status !== 'active') return
    session.send({ type: 'session.signedIn', user: other })
    const next = take()
    assert.is.not(next, actor)
    assert.ok(next.getSnapshot().matches('editing'))
  })
}

Kept('the same person signed in again (the portal restarted on a shared order): the export goes on', async () => {
  const { session, keeper, take } = setupKeeper()
  const actor = take()
  ;(await sendOne(keeper, actor))()
  session.send({ type: 'session.signedIn', user: F.authUser, orderId: 2 })
  assert.is(actor.getSnapshot().status, 'active')
  assert.is(take(), actor)
})

Kept.run()
