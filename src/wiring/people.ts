// The people area's flows (account, passkeys, devices, collaborators, invitations, representatives)
// with their real effects: the calls, the browser's WebAuthn ceremonies (@simplewebauthn/browser,
// loaded only when a passkey is used), the toasts, and what they tell the portal and the session.
import { fromPromise } from 'xstate'
import type { RegistrationResponseJSON, AuthenticationResponseJSON } from '@simplewebauthn/browser'
import type { PasskeyRegistrationBody } from '../../server/contract/people.ts'
import type { PasskeyLoginBody } from '../../server/contract/session.ts'
import {
  collaboratorsMachine,
  INVITATIONS_NOT_SENT,
  invitedNotice,
  SHARE_NOT_REMOVED,
  SHARE_REMOVED,
} from '../machines/people/collaborators.machine.ts'
import { closeAccountMachine } from '../machines/people/closeAccount.machine.ts'
import { dataExportMachine } from '../machines/people/dataExport.machine.ts'
import { devicesMachine, OTHERS_NOT_SIGNED_OUT } from '../machines/people/devices.machine.ts'
import { leaveOrderMachine } from '../machines/people/leaveOrder.machine.ts'
import { emailChangeMachine } from '../machines/people/emailChange.machine.ts'
import { invitationMachine } from '../machines/people/invitation.machine.ts'
import { passkeyLoginMachine } from '../machines/session/passkeyLogin.machine.ts'
import {
  PASSKEY_NOT_REMOVED,
  PASSKEY_NOT_RENAMED,
  PASSKEY_REMOVED,
  PASSKEY_RENAMED,
  passkeysMachine,
} from '../machines/people/passkeys.machine.ts'
import { passwordChangeMachine } from '../machines/people/passwordChange.machine.ts'
import { REFERRAL_NOT_SENT, referralMachine } from '../machines/people/referral.machine.ts'
import {
  REPRESENTATIVE_ADDED,
  REPRESENTATIVE_NOT_ADDED,
  REPRESENTATIVE_NOT_REMOVED,
  REPRESENTATIVE_REMOVED,
  representativesMachine,
} from '../machines/people/representatives.machine.ts'
import type { WiringDeps } from './deps.ts'
import { later } from './later.ts'
import { outlive, success } from './outlive.ts'
import { readStoredUser } from './storage.ts'
import { saveFile } from './save-file.ts'

export const EMAIL_NOT_CHANGED = 'Votre adresse e-mail n’a pas été modifiée : corrigez-la si besoin, puis réessayez.'
export const PASSWORD_NOT_CHANGED = 'Votre mot de passe n’a pas été modifié : vérifiez votre mot de passe actuel, puis réessayez.'
export const INVITATION_ACCEPTED = 'Invitation acceptée : voici le courrier de la domiciliation partagée avec vous.'

/** What the browser's WebAuthn errors mean to a person. */
function ceremonyError(action: 'add' | 'signIn') {
  return (error: unknown): never => {
    const name = error instanceof Error ? error.name : ''
    if (name === 'NotAllowedError' || name === 'AbortError') {
      throw new Error(
        action === 'add'
          ? 'L’ajout de la clé d’accès a été annulé.'
          : 'La connexion avec une clé d’accès a été annulée. Vous pouvez aussi vous connecter avec votre mot de passe.',
      )
    }
    if (name === 'InvalidStateError') throw new Error('Cet appareil a déjà une clé d’accès pour votre compte.')
    throw new Error(
      action === 'add'
        ? 'Votre navigateur n’a pas pu créer la clé d’accès. Réessayez, ou utilisez un autre appareil.'
        : 'Votre navigateur n’a pas pu utiliser de clé d’accès. Connectez-vous avec votre mot de passe.',
    )
  }
}

const webAuthn = () => import('@simplewebauthn/browser')

export function createPeopleFlows({ api, notify, navigate, toPortal, toSession }: WiringDeps) {
  const notifyAction = (_: unknown, notice: Parameters<WiringDeps['notify']>[0]) => notify(notice)
  // The lists of these pages are their own (not the portal's): a write that outlives its page is only told
  // (outlive.ts).
  return {
    emailChange: later(() =>
      emailChangeMachine.provide({
        actors: {
          // The call swallows its errors (spec §8): a toast said why; the form says it was not changed.
          updateEmail: fromPromise(
            async ({ input, signal }) => (await api.updateEmail(input, { signal })) ?? Promise.reject(new Error(EMAIL_NOT_CHANGED)),
          ),
        },
        actions: { notify: notifyAction, emailChanged: (_, { user }) => toPortal({ type: 'user.changed', user }) },
      }),
    ),
    // « Ce n’était pas vous ? »: the link of an address change's notice (bare page, no sign-in). Only its call here: the
    // page provides it to its machine, which stays in the page's chunk (kept out of the people area's chunk, which every people screen
    // loads).
    revertEmailChange: (token: string, signal?: AbortSignal) => api.revertEmailChange(token, { signal }),
    passwordChange: later(() =>
      passwordChangeMachine.provide({
        actors: {
          updatePassword: fromPromise(
            async ({ input, signal }) => (await api.updatePassword(input, { signal })) ?? Promise.reject(new Error(PASSWORD_NOT_CHANGED)),
          ),
        },
        actions: { notify: notifyAction },
      }),
    ),
    passkeys: later(() =>
      passkeysMachine.provide({
        actors: {
          loadPasskeys: fromPromise(({ signal }) => api.getPasskeys({ signal })),
          // Not kept past the page: the browser's prompt needs it, and a passkey made without it would be a surprise.
          createPasskey: fromPromise(async ({ signal }) => {
            const [{ startRegistration }, optionsJSON] = await Promise.all([webAuthn(), api.getPasskeyRegistrationOptions({ signal })])
            const credential: RegistrationResponseJSON = await startRegistration({ optionsJSON: optionsJSON as never }).catch(
              ceremonyError('add'),
            )
            return api.registerPasskey({ credential: credential as PasskeyRegistrationBody['credential'] }, { signal })
          }),
          renamePasskey: fromPromise(({ input, signal }) =>
            outlive(api.renamePasskey(input.id, { name: input.name }), signal, {
              notify,
              done: () => success(PASSKEY_RENAMED),
              failed: PASSKEY_NOT_RENAMED,
            }),
          ),
          deletePasskey: fromPromise(({ input, signal }) =>
            outlive(api.deletePasskey(input.id), signal, {
              notify,
              done: () => success(PASSKEY_REMOVED),
              failed: PASSKEY_NOT_REMOVED,
            }),
          ),
        },
        actions: { notify: notifyAction },
      }),
    ),
    passkeyLogin: later(() =>
      passkeyLoginMachine.provide({
        actors: {
          signIn: fromPromise(async ({ signal }) => {
            const [{ startAuthentication }, optionsJSON] = await Promise.all([webAuthn(), api.getPasskeyLoginOptions({ signal })])
            const credential: AuthenticationResponseJSON = await startAuthentication({ optionsJSON: optionsJSON as never }).catch(
              ceremonyError('signIn'),
            )
            return api.loginWithPasskey({ credential: credential as PasskeyLoginBody['credential'] }, { signal })
          }),
        },
        actions: { signedIn: (_, { user }) => toSession({ type: 'session.signedIn', user }) },
      }),
    ),
    devices: later(() =>
      devicesMachine.provide({
        actors: {
          loadSessions: fromPromise(({ signal }) => api.getSessions({ signal })),
          signOutOthers: fromPromise(({ signal }) =>
            outlive(api.signOutOtherSessions(), signal, {
              notify,
              done: (reply) => success(reply.message),
              failed: OTHERS_NOT_SIGNED_OUT,
            }),
          ),
        },
        actions: { notify: notifyAction },
      }),
    ),
    // « Mes données »: the job goes on on the server whatever the page does; only its reading here stops with it.
    dataExport: later(() =>
      dataExportMachine.provide({
        actors: {
          loadLatest: fromPromise(async ({ signal }) => (await api.getDataExports({ signal }))[0] ?? null),
          start: fromPromise(({ signal }) => api.startDataExport({ signal })),
          check: fromPromise(({ input, signal }) => api.getDataExport(input.id, { signal })),
          download: fromPromise(async ({ input, signal }) => {
            const blob = await api.getDataExportFile(input.id, { signal })
            saveFile(blob, `mes-donnees-${(input.readyAt ?? input.createdAt).slice(0, 10)}.zip`)
          }),
        },
      }),
    ),
    collaborators: later(() =>
      collaboratorsMachine.provide({
        actors: {
          loadShares: fromPromise(({ input, signal }) => api.getShares(input.orderId, { signal })),
          invite: fromPromise(({ input, signal }) =>
            outlive(api.inviteCollaborators(input.orderId, { emails: input.emails }), signal, {
              notify,
              done: (shares) => invitedNotice(input, shares),
              failed: INVITATIONS_NOT_SENT,
            }),
          ),
          removeShare: fromPromise(({ input, signal }) =>
            outlive(api.deleteShare(input.orderId, input.shareId), signal, {
              notify,
              done: () => success(SHARE_REMOVED),
              failed: SHARE_NOT_REMOVED,
            }),
          ),
        },
        actions: { notify: notifyAction },
      }),
    ),
    referral: later(() =>
      referralMachine.provide({
        actors: {
          sendReferral: fromPromise(({ input, signal }) =>
            outlive(api.sendInvite(input), signal, {
              notify,
              done: (reply) => success(reply.message),
              failed: REFERRAL_NOT_SENT,
            }),
          ),
        },
        actions: { notify: notifyAction },
      }),
    ),
    representatives: later(() =>
      representativesMachine.provide({
        actors: {
          loadRepresentatives: fromPromise(({ input, signal }) => api.getMandataires(input.orderId, { signal })),
          addRepresentative: fromPromise(({ input, signal }) =>
            outlive(api.addMandataire(input.orderId, input.representative), signal, {
              notify,
              done: () => success(REPRESENTATIVE_ADDED),
              failed: REPRESENTATIVE_NOT_ADDED,
            }),
          ),
          removeRepresentative: fromPromise(({ input, signal }) =>
            outlive(api.deleteMandataire(input.orderId, input.id), signal, {
              notify,
              done: () => success(REPRESENTATIVE_REMOVED),
              failed: REPRESENTATIVE_NOT_REMOVED,
            }),
          ),
        },
        actions: { notify: notifyAction },
      }),
    ),
    // The account closed: the server ended every session; this one ends here without calling it, the reason in a toast.
    closeAccount: later(() =>
      closeAccountMachine.provide({
        actors: { closeAccount: fromPromise(({ input, signal }) => api.closeAccount(input, { signal })) },
        actions: {
          closed: (_, { message }) => {
            notify({ kind: 'success', message })
            toSession({ type: 'session.logout', elsewhere: true })
          },
        },
      }),
    ),
    // Left: the portal starts again on the orders that remain (the one left among them no more), from the dashboard.
    leaveOrder: later(() =>
      leaveOrderMachine.provide({
        actors: { leaveOrder: fromPromise(({ input, signal }) => api.leaveSharedOrder(input.orderId, { signal })) },
        actions: {
          left: (_, { message }) => {
            notify({ kind: 'success', message })
            const user = readStoredUser()
            if (user) toSession({ type: 'session.signedIn', user })
            navigate('/tableau-de-bord', { replace: true })
          },
        },
      }),
    ),
    invitation: later(() =>
      invitationMachine.provide({
        actors: {
          loadInvitation: fromPromise(({ input, signal }) => api.getInvitation(input.token, { signal })),
          accept: fromPromise(({ input, signal }) => api.acceptInvitation(input.token, { signal })),
          signInAndAccept: fromPromise(async ({ input, signal }) => {
            const user = await api.login({ username: input.email, password: input.password }, { signal })
            // The session keeps the user only once the order is shared, so the portal starts on it.
            const { orderId } = await api.acceptInvitation(input.token, { signal, apiToken: user.apiToken })
            return { user, orderId }
          }),
          createAccount: fromPromise(async ({ input: { token, ...account }, signal }) => {
            const reply = await api.createInvitationAccount(token, account, { signal })
            return { user: reply.user, orderId: reply.orderId }
          }),
        },
        actions: {
          enterPortal: (_, { user, orderId }) => {
            const signedIn = user ?? readStoredUser()
            if (signedIn) toSession({ type: 'session.signedIn', user: signedIn, orderId })
            notify({ kind: 'success', message: INVITATION_ACCEPTED })
            navigate('/tableau-de-bord', { replace: true })
          },
          signOut: () => toSession({ type: 'session.logout' }),
        },
      }),
    ),
  }
}
