import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createActor } from 'xstate'
import {
  decisionDone,
  REVIEW_MESSAGES,
  justificatifReviewMachine,
  refusalProblems,
} from '../../../../src/backoffice/machines/company/justificatifReview.machine.ts'
import type { Notice } from '../../../../src/machines/shared.ts'
import { decided, justificatif } from '../../../util/backoffice-company.ts'
import { Deferreds, describePath, pathsToReplay, replay, shortestPaths } from '../../../util/paths.ts'

const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const down = failure(503, 'Le service est momentanément indisponible. Réessayez dans quelques instants.')
const replaced = failure(
  412,
  'Le client a envoyé un autre fichier (Kbis) depuis celui que vous avez ouvert : vérifiez le nouveau avant de décider.',
)
const taken = failure(409, 'Ce justificatif a déjà été validé le 20 novembre 2026 : rien n’a été changé.')
const kbis = justificatif(3)
const identity = justificatif(5, { kind: 'identite', label: 'Pièce d’identité du gérant', raisonSociale: 'Conseil Horizon EURL' })
const newFile = { ...kbis, version: '"v3-2"', filedAt: '2026-11-20T09:30:00.000Z' }
const illisible = { reason: 'illisible' as const, detail: '' }
const autre = { reason: 'autre' as const, detail: ' Pièce expirée depuis 2023 ' }

function start() {
  const deferreds = new Deferreds()
  const notices: Notice[] = []
  const machine = justificatifReviewMachine.provide({
    actors: { load: deferreds.actor(), openDocument: deferreds.actor(), decide: deferreds.actor() },
    // (`refresh` is `load` again: the Deferreds tell its invocations apart by their ids)
    actions: { notify: (_, notice) => void notices.push(notice) },
  })
  return { actor: createActor(machine), deferreds, notices }
}

const events = [
  { type: 'xstate.done.actor.load', output: [kbis, identity] },
  { type: 'xstate.error.actor.load', error: down },
  { type: 'list.retry' },
  { type: 'document.open', kind: 'kbis', id: 3 },
  { type: 'document.open', kind: 'kbis', id: 99 },
  { type: 'xstate.done.actor.openDocument', output: kbis },
  { type: 'xstate.done.actor.openDocument', output: newFile },
  { type: 'xstate.done.actor.openDocument', output: { ...kbis, status: 'validé' } },
  { type: 'xstate.error.actor.openDocument', error: down },
  { type: 'document.close' },
  { type: 'document.validate' },
  { type: 'refusal.start' },
  { type: 'refusal.cancel' },
  { type: 'refusal.send', refusal: illisible },
  { type: 'refusal.send', refusal: autre },
  { type: 'refusal.send', refusal: { reason: 'autre', detail: ' ' } },
  { type: 'refusal.send', refusal: { reason: '', detail: '' } },
  { type: 'xstate.done.actor.decide', output: decided(kbis) },
  { type: 'xstate.error.actor.decide', error: replaced },
  { type: 'xstate.error.actor.decide', error: taken },
  { type: 'xstate.error.actor.decide', error: down },
  // The list read again every minute while it is shown: a new file of a customer's listed, a failure keeps the list.
  { type: 'xstate.after.refresh.justificatifReview.list' },
  { type: 'xstate.done.actor.refresh', output: [identity, kbis, justificatif(8, { raisonSociale: 'Studio Nuage SAS' })] },
  { type: 'xstate.error.actor.refresh', error: down },
] as const

const ModelBased = suite('back office, the review of a justificatif: shortest paths covering every state and transition, replayed')
const paths = shortestPaths(justificatifReviewMachine, {
  events,
  serializeState: (s: any) =>
    JSON.stringify([
      s.value,
      s.context.documents?.length ?? null,
      s.context.open?.version ?? null,
      s.context.open?.status ?? null,
      s.context.replaced,
      s.context.refusal,
      s.context.problems,
      s.context.sendError,
      s.context.error,
    ]),
  limit: 5000,
})
ModelBased('the model reaches every state', () => {
  assert.equal([...new Set(paths.map((p) => String(p.state.value)))].sort(), [
    'deciding',
    'failed',
    'list',
    'loading',
    'opening',
    'refreshing',
    'refusing',
    'reloading',
    'reviewing',
  ])
})
for (const path of pathsToReplay(paths, ModelBased)) {
  ModelBased(describePath(path), async () => {
    const { actor, deferreds, notices } = start()
    await replay(actor, deferreds, path)
    const snapshot = actor.getSnapshot()
    const steps = path.steps.map((s) => s.event as { type: string; error?: Error; output?: unknown; refusal?: { reason: string } })
    const last = steps.at(-1)
    // Every decision names the version of the file the operator has on screen, and only a complete refusal is sent.
    for (const [i, started] of deferreds.started.entries()) {
      if (started.id !== 'decide') continue
      const { document, decision } = started.input as { document: { version: string }; decision: { kind: string; detail?: string } }
      const shown = deferreds.started.slice(0, i).filter((s) => s.id === 'openDocument').length
      assert.ok(shown > 0, 'never decided before the document was read')
      assert.ok([kbis.version, newFile.version].includes(document.version))
      const { reason } = decision as { reason?: string }
      if (decision.kind === 'refuse') assert.ok(['illisible', 'autre'].includes(reason!))
      if (reason === 'autre') assert.is(decision.detail, 'Pièce expirée depuis 2023')
    }
    // Replaced meanwhile: the new file is read and shown, with the warning; nothing decided.
    if (last?.error === replaced) assert.is(snapshot.value, 'reloading')
    if (snapshot.matches('reviewing') && snapshot.context.replaced) {
      const read = steps.findLast((e) => e.type === 'xstate.done.actor.openDocument')!.output as typeof kbis
      assert.equal(snapshot.context.open, read, 'the file read again is the one shown')
      assert.equal(
        snapshot.context.documents!.find((d) => d.id === read.id),
        read,
      )
    }
    // Decided: it leaves the list, the operator is told.
    if (last?.type === 'xstate.done.actor.decide') {
      assert.equal(snapshot.context.documents, [identity])
      assert.equal(notices.at(-1), { kind: 'success', message: decisionDone(kbis, decided(kbis)) })
    }
    // Read again: the new list replaces the one shown; a failure keeps it as it was, with nothing said.
    if (last?.type === 'xstate.done.actor.refresh') assert.equal([snapshot.value, snapshot.context.documents], ['list', last.output])
    if (last?.type === 'xstate.error.actor.refresh') {
      const before = path.steps.at(-2)!.state.context.documents
      assert.equal([snapshot.value, snapshot.context.documents], ['list', before])
    }
    if (last?.type === 'xstate.after.refresh.justificatifReview.list') assert.is(deferreds.started.at(-1)!.id, 'refresh')
    if (last?.error === taken)
      assert.equal([snapshot.value, snapshot.context.error, snapshot.context.documents], ['list', taken.message, [identity]])
    if (last?.error === down && snapshot.matches('reviewing')) assert.is(snapshot.context.sendError, down.message)
    if (last?.type === 'refusal.send' && snapshot.value === 'refusing')
      assert.equal(snapshot.context.problems, refusalProblems(last.refusal as never))
    assert.is(snapshot.hasTag('busy'), ['opening', 'deciding', 'reloading'].includes(String(snapshot.value)))
    actor.stop()
  })
}
ModelBased.run()

const Rules = suite('back office, the review of a justificatif: the refusal form and the messages')
Rules('a reason is required; « autre » needs its words (3 characters at least)', () => {
  assert.equal(refusalProblems({ reason: '', detail: '' }), { reason: REVIEW_MESSAGES.reason })
  assert.equal(refusalProblems({ reason: 'autre', detail: ' ok ' }), { detail: REVIEW_MESSAGES.detail })
  assert.equal(refusalProblems(autre), {})
  assert.equal(refusalProblems({ reason: 'plus-de-trois-mois', detail: '' }), {})
})
Rules('what the operator is told', () => {
  assert.is(decisionDone(kbis, decided(kbis)), 'Kbis de Atelier Lumière SARL validé.')
  assert.is(
    decisionDone(identity, decided(identity, { orderValidatedAt: '2026-11-20T10:00:00.000Z' })),
    'Pièce d’identité du gérant de Conseil Horizon EURL validé : le dossier du client est complet.',
  )
  assert.is(decisionDone(kbis, decided(kbis, { refused: true })), 'Kbis de Atelier Lumière SARL refusé : le client est prévenu par e-mail.')
})
Rules.run()
