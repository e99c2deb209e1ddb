// The back office's view tests: its app rendered in happy-dom on a memory location, with its real wiring
// (src/backoffice/wiring/services.ts) over a fake API whose answers a test sets, and every call recorded.
import { act, render } from '@testing-library/react'
import { memoryLocation } from 'wouter/memory-location'
import type { ApiKeySummary, JournalEntry, OperatorMe, OperatorSummary } from '../../server/contract/operators.ts'
import { ApiError } from '../../src/api/errors.ts'
import type { OperatorSession } from '../../src/backoffice/machines/operators/operatorSession.machine.ts'
import { BackOfficeApp } from '../../src/backoffice/views/App.tsx'
import { OPERATOR_SESSION_KEY } from '../../src/backoffice/wiring/storage.ts'
import { type BackOfficeApi, createBackOfficeServices } from '../../src/backoffice/wiring/services.ts'
import type { Notice } from '../../src/machines/shared.ts'

export const ines: OperatorMe = { id: 1, email: 'operateur@example.com', name: 'Inès Garnier', roles: ['admin'] }
export const hugo: OperatorMe = { id: 2, email: 'courrier@example.com', name: 'Hugo Lemaire', roles: ['courrier'] }

export const summary = (me: OperatorMe, extra: Partial<OperatorSummary> = {}): OperatorSummary => ({
  ...me,
  active: true,
  enrolled: true,
  createdAt: '2026-11-01T10:00:00.000Z',
  deactivatedAt: null,
  ...extra,
})

export const apiError = (status: number, message: string, code?: string) => new ApiError(message, status, code)

/** A call's answer: a value, an error thrown, or a promise the test settles. */
type Answer = unknown
export interface FakeApi {
  calls: { name: string; args: unknown[] }[]
  /** The answers by function name, taken in turn (the last one stays). */
  answers: Record<string, Answer[]>
}

const defaults = (operators: OperatorSummary[], keys: ApiKeySummary[], entries: JournalEntry[]): Record<string, Answer[]> => ({
  getMe: [ines],
  signOut: [{ message: 'Déconnecté.' }],
  getOperators: [operators],
  getApiKeys: [keys],
  getJournal: [{ entries, page: 1, pageSize: 50, total: entries.length }],
  getJournalCsv: [new Blob(['\ufeffDate;Opérateur\r\n'], { type: 'text/csv' })],
  getDashboard: [{ at: '2026-11-20T10:00:00.000Z', queues: [] }],
  getMailRoomOrders: [[]],
  getScans: [[]],
  getWaitingPackages: [[]],
  getForwardingRequests: [[]],
  getScanPage: [new Blob(['RIFF'], { type: 'image/webp' })],
  getJustificatifs: [[]],
  getJustificatifFile: [new Blob(['%PDF-1.7'], { type: 'application/pdf' })],
  getLegalSubmissions: [[]],
})

export interface RenderOptions {
  /** The session kept in the browser as the page opens. */
  signedIn?: OperatorMe | null
  answers?: Record<string, Answer[]>
  operators?: OperatorSummary[]
  keys?: ApiKeySummary[]
  entries?: JournalEntry[]
}

export async function renderBackOffice(path: string, options: RenderOptions = {}) {
  localStorage.clear()
  if (options.signedIn) {
    const kept: OperatorSession = { token: 'op_kept', operator: options.signedIn }
    localStorage.setItem(OPERATOR_SESSION_KEY, JSON.stringify(kept))
  }
  const fake: FakeApi = {
    calls: [],
    answers: {
      ...defaults(options.operators ?? [summary(ines), summary(hugo)], options.keys ?? [], options.entries ?? []),
      ...options.answers,
    },
  }
  if (options.signedIn && !options.answers?.getMe) fake.answers.getMe = [options.signedIn]
  const answer =
    (name: string) =>
    async (...args: unknown[]) => {
      fake.calls.push({ name, args: args.filter((a) => !(a && typeof a === 'object' && 'signal' in a)) })
      const list = fake.answers[name]
      if (!list?.length) throw new Error(`the fake back-office API has no answer for ${name}`)
      const next = list.length > 1 ? list.shift() : list[0]
      const value = typeof next === 'function' ? await (next as () => unknown)() : await next
      if (value instanceof Error) throw value
      return value
    }
  const names = [
    'submitPassword',
    'submitCode',
    'getPasskeySignInOptions',
    'submitPasskey',
    'getEnrolment',
    'enrol',
    'getMe',
    'signOut',
    'getMyPasskeys',
    'getPasskeyRegistrationOptions',
    'registerPasskey',
    'deletePasskey',
    'getOperators',
    'inviteOperator',
    'setOperatorRoles',
    'deactivateOperator',
    'getJournal',
    'getJournalCsv',
    'getApiKeys',
    'createApiKey',
    'revokeApiKey',
    'searchClients',
    'createClient',
    'getClientOrder',
    'getOrderTimeline',
    'getDashboard',
    'getMailRoomOrders',
    'uploadScan',
    'getScans',
    'getScan',
    'getScanFile',
    'getScanPage',
    'reviewScan',
    'deleteScan',
    'publishScan',
    'publishScans',
    'registerPackage',
    'getWaitingPackages',
    'getPackagePhoto',
    'getPackageCollectors',
    'handOverPackage',
    'getForwardingRequests',
    'markForwardingShipped',
    'markForwardingImpossible',
    'getJustificatifs',
    'getJustificatif',
    'getJustificatifFile',
    'validateJustificatif',
    'refuseJustificatif',
    'getLegalSubmissions',
    'moveLegalSubmission',
    'getConversations',
    'getConversation',
    'replyConversation',
    'closeConversation',
    'reopenConversation',
    'getTerminations',
    'acceptTermination',
    'contactTermination',
  ] as const
  const hooks: { onUnauthorized?: () => void } = {}
  const api = {
    ...Object.fromEntries(names.map((name) => [name, answer(name)])),
    configureBackOfficeApi: (next: { onUnauthorized?: () => void }) => Object.assign(hooks, next),
  } as unknown as BackOfficeApi
  const location = memoryLocation({ path, record: true })
  const notices: Notice[] = []
  const saved: { file: Blob; name: string }[] = []
  const services = createBackOfficeServices({
    api,
    notify: (notice) => void notices.push(notice),
    currentPath: () => location.history.at(-1) ?? path,
    saveFile: (file, name) => void saved.push({ file, name }),
    navigate: (to) => location.navigate(to),
  })
  let view: ReturnType<typeof render> | undefined
  await act(async () => {
    view = render(<BackOfficeApp services={services} hook={location.hook} />)
  })
  return {
    view: view!,
    services,
    fake,
    notices,
    saved,
    location,
    path: () => location.history.at(-1),
    /** As the client does on any call of the session answered 401. */
    unauthorized: () => act(async () => hooks.onUnauthorized?.()),
    called: (name: string) => fake.calls.filter((c) => c.name === name).map((c) => c.args),
  }
}
