// The back office's composition root: the session actor with its real effects, the API client hooked to it (its token
// on every call, a 401 anywhere ends the session), and each flow of the pages with its effects provided once. main.tsx
// calls it with the real API; the view tests with a fake one.
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { createActor, fromPromise } from 'xstate'
import type * as companyApi from '../api/company.ts'
import type * as mailApi from '../api/mail.ts'
import type * as notificationsApi from '../api/notifications.ts'
import type * as billingApi from '../api/billing.ts'
import type * as operatorsApi from '../api/operators.ts'
import type { Body, configureBackOfficeApi } from '../api/client.ts'
import { apiKeysMachine } from '../machines/operators/apiKeys.machine.ts'
import { enrolmentMachine } from '../machines/operators/enrolment.machine.ts'
import { journalMachine } from '../machines/operators/journal.machine.ts'
import { myPasskeysMachine } from '../machines/operators/myPasskeys.machine.ts'
import { operatorDirectoryMachine } from '../machines/operators/operatorDirectory.machine.ts'
import { operatorInviteMachine } from '../machines/operators/operatorInvite.machine.ts'
import { operatorSessionMachine } from '../machines/operators/operatorSession.machine.ts'
import { signInMachine } from '../machines/operators/signIn.machine.ts'
import type { Notice } from '../../machines/shared.ts'
import { forgetOperatorSession, onSessionChangedElsewhere, readOperatorSession, writeOperatorSession } from './storage.ts'
import type { JournalFilters } from '../machines/operators/journal.machine.ts'
import { queuesMachine } from '../machines/dashboard/queues.machine.ts'
import { clientOrderMachine } from '../machines/operators/clientOrder.machine.ts'
import { clientSearchMachine } from '../machines/operators/clientSearch.machine.ts'
import { newClientMachine } from '../machines/operators/newClient.machine.ts'
import { clientOrderPath } from '../views/pages/operators/paths.ts'
import { forwardingMachine } from '../machines/mail/forwarding.machine.ts'
import { handoverMachine } from '../machines/mail/handover.machine.ts'
import { orderPickerMachine } from '../machines/mail/orderPicker.machine.ts'
import { packageDeskMachine } from '../machines/mail/packageDesk.machine.ts'
import { scanQueueMachine } from '../machines/mail/scanQueue.machine.ts'
import { scanReviewMachine } from '../machines/mail/scanReview.machine.ts'
import { readAsDataUrl } from './files.ts'
import type { JustificatifKind } from '../../../server/contract/company-backoffice.ts'
import type { formalitiesMachine } from '../machines/company/formalities.machine.ts'
import type { justificatifReviewMachine } from '../machines/company/justificatifReview.machine.ts'
import type { conversationsMachine } from '../machines/notifications/conversations.machine.ts'
import type { terminationsMachine } from '../machines/billing/terminations.machine.ts'
import { conversationPath } from '../views/pages/notifications/paths.ts'

/**
 * The browser's WebAuthn prompts (@simplewebauthn/browser, as the portal's): loaded with the first ceremony, in a chunk
 * of its own, never in the first load.
 */
const webAuthn = () => import('@simplewebauthn/browser')

/** What the browser's WebAuthn errors mean to an operator. */
export function passkeyPromptError(action: 'add' | 'signIn') {
  return (error: unknown): never => {
    const name = error instanceof Error ? error.name : ''
    if (name === 'NotAllowedError' || name === 'AbortError')
      throw new Error(
        action === 'add'
          ? 'L’ajout de la clé d’accès a été annulé.'
          : 'La connexion avec une clé d’accès a été annulée. Vous pouvez aussi saisir le code de votre application d’authentification.',
      )
    if (name === 'InvalidStateError') throw new Error('Cet appareil a déjà une clé d’accès pour votre compte opérateur.')
    throw new Error(
      action === 'add'
        ? 'Votre navigateur n’a pas pu créer la clé d’accès. Réessayez, ou utilisez un autre appareil.'
        : 'Votre navigateur n’a pas pu utiliser de clé d’accès. Saisissez le code de votre application d’authentification.',
    )
  }
}

export type BackOfficeApi = typeof operatorsApi &
  typeof mailApi &
  typeof companyApi &
  typeof notificationsApi &
  typeof billingApi & { configureBackOfficeApi: typeof configureBackOfficeApi }

export interface BackOfficeDeps {
  api: BackOfficeApi
  notify: (notice: Notice) => void
  /** The page shown now, to come back to after the session ended by itself. */
  currentPath: () => string
  /** Hands a file to the browser (the journal's CSV). */
  saveFile: (file: Blob, name: string) => void
  /** Opens a page of the back office (a new client's order). */
  navigate: (path: string) => void
}

/** The journal's filters as the query string of its calls. */
const journalQuery = (filters: JournalFilters) => ({
  operatorId: filters.operatorId,
  orderId: filters.orderId,
  action: filters.action || undefined,
  from: filters.from || undefined,
  to: filters.to || undefined,
})

/**
 * A flow whose statechart comes with its page's chunk, never in the first load (the page hands it over): its effects
 * are provided here, once, on first use.
 */
function later<M, Provided>(provide: (machine: M) => Provided): (machine: M) => Provided {
  let provided: Provided | undefined
  return (machine) => {
    provided ??= provide(machine)
    return provided
  }
}

export function createBackOfficeServices({ api, notify, currentPath, saveFile, navigate }: BackOfficeDeps) {
  const session = createActor(
    operatorSessionMachine.provide({
      actors: {
        loadMe: fromPromise(({ signal }) => api.getMe({ signal })),
        endSession: fromPromise(({ signal }) => api.signOut({ signal })),
      },
      actions: {
        persist: (_, { session }) => writeOperatorSession(session),
        forget: (_, { token }) => forgetOperatorSession(token),
      },
    }),
    { input: { stored: readOperatorSession() } },
  )
  api.configureBackOfficeApi({
    getToken: () => session.getSnapshot().context.session?.token ?? null,
    onUnauthorized: () => session.send({ type: 'session.expired', path: currentPath() }),
  })
  // Signed out (or in as someone else) in another tab: this one's session is over too.
  const unfollow = onSessionChangedElsewhere((kept) => {
    const mine = session.getSnapshot().context.session
    if (mine && kept?.token !== mine.token) session.send({ type: 'session.expired', path: currentPath() })
    else if (!mine && kept && session.getSnapshot().matches('signedOut')) session.send({ type: 'session.signedIn', session: kept })
  })
  session.subscribe({ complete: unfollow })

  const flows = {
    signIn: signInMachine.provide({
      actors: {
        checkPassword: fromPromise(({ input, signal }) => api.submitPassword(input, { signal })),
        checkCode: fromPromise(async ({ input, signal }) => {
          const { token, operator } = await api.submitCode(input, { signal })
          return { token, operator }
        }),
        checkPasskey: fromPromise(async ({ input, signal }) => {
          const [{ startAuthentication }, optionsJSON] = await Promise.all([
            webAuthn(),
            api.getPasskeySignInOptions({ ticket: input.ticket }, { signal }),
          ])
          const credential = await startAuthentication({
            optionsJSON: optionsJSON as unknown as PublicKeyCredentialRequestOptionsJSON,
          }).catch(passkeyPromptError('signIn'))
          const { token, operator } = await api.submitPasskey(
            { ticket: input.ticket, credential: credential as Body<'operatorPasskey'>['credential'] },
            { signal },
          )
          return { token, operator }
        }),
      },
      actions: { signedIn: (_, { session: opened }) => session.send({ type: 'session.signedIn', session: opened }) },
    }),
    enrolment: enrolmentMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) => api.getEnrolment(input.token, { signal })),
        enrol: fromPromise(({ input: { token, ...body }, signal }) => api.enrol(token, body, { signal })),
      },
    }),
    operatorDirectory: operatorDirectoryMachine.provide({
      actors: {
        load: fromPromise(({ signal }) => api.getOperators({ signal })),
        saveRoles: fromPromise(({ input: { id, roles }, signal }) => api.setOperatorRoles(id, { roles }, { signal })),
        deactivate: fromPromise(({ input, signal }) => api.deactivateOperator(input.id, { signal })),
      },
      actions: { notify: (_, notice) => notify(notice) },
    }),
    operatorInvite: operatorInviteMachine.provide({
      actors: { invite: fromPromise(({ input, signal }) => api.inviteOperator(input, { signal })) },
    }),
    apiKeys: apiKeysMachine.provide({
      actors: {
        load: fromPromise(({ signal }) => api.getApiKeys({ signal })),
        create: fromPromise(({ input, signal }) => api.createApiKey(input, { signal })),
        revoke: fromPromise(({ input, signal }) => api.revokeApiKey(input.id, { signal })),
      },
      actions: { notify: (_, notice) => notify(notice) },
    }),
    journal: journalMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) => api.getJournal({ ...journalQuery(input.filters), page: input.page }, { signal })),
        download: fromPromise(({ input, signal }) => api.getJournalCsv(journalQuery(input.filters), { signal })),
      },
      actions: { save: (_, { file }) => saveFile(file, `journal-${new Date().toISOString().slice(0, 10)}.csv`) },
    }),
    myPasskeys: myPasskeysMachine.provide({
      actors: {
        load: fromPromise(({ signal }) => api.getMyPasskeys({ signal })),
        add: fromPromise(async ({ signal }) => {
          const [{ startRegistration }, optionsJSON] = await Promise.all([webAuthn(), api.getPasskeyRegistrationOptions({ signal })])
          const credential = await startRegistration({
            optionsJSON: optionsJSON as unknown as PublicKeyCredentialCreationOptionsJSON,
          }).catch(passkeyPromptError('add'))
          return api.registerPasskey({ credential: credential as Body<'operatorRegisterPasskey'>['credential'] }, { signal })
        }),
        remove: fromPromise(({ input, signal }) => api.deletePasskey(input.id, { signal })),
      },
      actions: { notify: (_, notice) => notify(notice) },
    }),
    clientSearch: clientSearchMachine.provide({
      actors: {
        search: fromPromise(({ input, signal }) => api.searchClients({ q: input.query || undefined, page: input.page }, { signal })),
      },
    }),
    clientOrder: clientOrderMachine.provide({
      actors: {
        loadOrder: fromPromise(({ input, signal }) => api.getClientOrder(input.orderId, { signal })),
        loadTimeline: fromPromise(({ input, signal }) => api.getOrderTimeline(input.orderId, { page: input.page }, { signal })),
      },
    }),
    newClient: newClientMachine.provide({
      actors: { create: fromPromise(({ input, signal }) => api.createClient(input, { signal })) },
      actions: {
        created: (_, { client }) => {
          notify({ kind: client.ownerNotified ? 'success' : 'info', message: client.message })
          navigate(clientOrderPath(client.orderId))
        },
      },
    }),
    scanQueue: scanQueueMachine.provide({
      actors: {
        load: fromPromise(({ signal }) => api.getScans({ signal })),
        upload: fromPromise(async ({ input, signal }) =>
          api.uploadScan(
            { fileName: input.fileName, file: await readAsDataUrl(input.file, signal) },
            { signal, onProgress: input.onProgress },
          ),
        ),
        publishAll: fromPromise(({ input, signal }) => api.publishScans({ scanIds: input.scanIds }, { signal })),
      },
      actions: { notify: (_, notice) => notify(notice) },
    }),
    scanReview: scanReviewMachine.provide({
      actors: {
        review: fromPromise(({ input, signal }) => api.reviewScan(input.id, input.body, { signal })),
        publish: fromPromise(({ input, signal }) => api.publishScan(input.id, { signal })),
        remove: fromPromise(({ input, signal }) => api.deleteScan(input.id, { signal })),
      },
      actions: { notify: (_, notice) => notify(notice) },
    }),
    orderPicker: orderPickerMachine.provide({
      actors: { search: fromPromise(({ input, signal }) => api.getMailRoomOrders({ q: input.query || undefined }, { signal })) },
    }),
    packageDesk: packageDeskMachine.provide({
      actors: {
        load: fromPromise(({ signal }) => api.getWaitingPackages({}, { signal })),
        register: fromPromise(async ({ input, signal }) =>
          api.registerPackage(
            {
              orderId: input.orderId!,
              carrier: input.carrier.trim(),
              sender: input.sender.trim(),
              ...(input.photo ? { photo: await readAsDataUrl(input.photo.file, signal) } : {}),
            },
            { signal },
          ),
        ),
      },
      actions: { notify: (_, notice) => notify(notice) },
    }),
    handover: handoverMachine.provide({
      actors: {
        loadCollectors: fromPromise(({ input, signal }) => api.getPackageCollectors(input.id, { signal })),
        handOver: fromPromise(({ input, signal }) => api.handOverPackage(input.id, input.body, { signal })),
      },
      actions: { notify: (_, notice) => notify(notice) },
    }),
    forwarding: forwardingMachine.provide({
      actors: {
        load: fromPromise(({ signal }) => api.getForwardingRequests({ signal })),
        send: fromPromise(({ input: { id, outcome }, signal }) =>
          outcome.kind === 'shipped'
            ? api.markForwardingShipped(id, { carrier: outcome.carrier.trim(), trackingNumber: outcome.trackingNumber.trim() }, { signal })
            : api.markForwardingImpossible(id, { reason: outcome.reason.trim() }, { signal }),
        ),
      },
      actions: { notify: (_, notice) => notify(notice) },
    }),
    justificatifReview: later((machine: typeof justificatifReviewMachine) =>
      machine.provide({
        actors: {
          load: fromPromise(({ signal }) => api.getJustificatifs({ signal })),
          openDocument: fromPromise(({ input, signal }) => api.getJustificatif(input.kind, input.id, { signal })),
          decide: fromPromise(({ input: { document, decision }, signal }) =>
            decision.kind === 'validate'
              ? api.validateJustificatif(document.kind, document.id, { version: document.version }, { signal })
              : api.refuseJustificatif(
                  document.kind,
                  document.id,
                  { version: document.version, reason: decision.reason, ...(decision.detail ? { detail: decision.detail } : {}) },
                  { signal },
                ),
          ),
        },
        actions: { notify: (_, notice) => notify(notice) },
      }),
    ),
    conversations: later((machine: typeof conversationsMachine) =>
      machine.provide({
        actors: {
          load: fromPromise(({ input, signal }) => api.getConversations({ status: input.status }, { signal })),
          open: fromPromise(({ input, signal }) => api.getConversation(input.id, { signal })),
          reply: fromPromise(({ input, signal }) => api.replyConversation(input.id, { message: input.message.trim() }, { signal })),
          setStatus: fromPromise(({ input, signal }) =>
            input.status === 'closed' ? api.closeConversation(input.id, { signal }) : api.reopenConversation(input.id, { signal }),
          ),
        },
        actions: { notify: (_, notice) => notify(notice) },
      }),
    ),
    formalities: later((machine: typeof formalitiesMachine) =>
      machine.provide({
        actors: {
          load: fromPromise(({ signal }) => api.getLegalSubmissions({ signal })),
          move: fromPromise(({ input, signal }) => api.moveLegalSubmission(input.id, { status: input.to }, { signal })),
        },
        actions: { notify: (_, notice) => notify(notice) },
      }),
    ),
    terminations: later((machine: typeof terminationsMachine) =>
      machine.provide({
        actors: {
          load: fromPromise(({ signal }) => api.getTerminations({ signal })),
          send: fromPromise(({ input: { id, action }, signal }) =>
            action.kind === 'accept'
              ? api.acceptTermination(id, { endDate: action.endDate }, { signal })
              : api.contactTermination(id, { message: action.message.trim() }, { signal }),
          ),
        },
        actions: {
          notify: (_, notice) => notify(notice),
          openConversation: (_, { conversationId }) => {
            if (conversationId !== null) navigate(conversationPath(conversationId))
          },
        },
      }),
    ),
    queues: queuesMachine.provide({
      actors: { load: fromPromise(async ({ signal }) => (await api.getDashboard({ signal })).queues) },
    }),
  }

  /** The files the mail room's pages show (a scan's page, a package's photo), read with the session. */
  const files = {
    scanPage: (id: number, page: number, signal: AbortSignal) => api.getScanPage(id, page, { signal }),
    scanFile: (id: number, signal: AbortSignal) => api.getScanFile(id, { signal }),
    packagePhoto: (id: number, signal: AbortSignal) => api.getPackagePhoto(id, { signal }),
    justificatif: (kind: JustificatifKind, id: number, signal: AbortSignal) => api.getJustificatifFile(kind, id, { signal }),
  }

  session.start()
  return { session, flows, files, notify }
}

export type BackOfficeServices = ReturnType<typeof createBackOfficeServices>
export type OperatorSessionRef = BackOfficeServices['session']
export type BackOfficeFlows = BackOfficeServices['flows']
