// Orders, problem reports, invitations, collaborators and representatives (spec §7).
import { type Body, type CallOptions, call, encode, type Reply, swallow } from './client.ts'

const order = (id: number) => `/api-protected/domiciliation-orders/${encode(id)}`

export const getMyOrders = (options?: CallOptions) =>
  call<Reply<'myOrders'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/my-domiciliation-orders' }, options)

export const sendProblem = (id: number, body: Body<'sendProblem'>, options?: CallOptions) =>
  call<Reply<'sendProblem'>>({ auth: 'apiToken', method: 'POST', path: `${order(id)}:send-problem`, body }, options)

export const sendInvite = (body: Body<'sendInvite'>, options?: CallOptions) =>
  call<Reply<'sendInvite'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/send-invite', body }, options)

type OrderCheck = 'is-attente-courrier-or-finalise' | 'is-complete-kbis' | 'is-waiting-contract'
/** The order checks swallow errors (spec §8): undefined means unknown, and the customer was told. */
const check = (what: OrderCheck) => async (id: number, options?: CallOptions) => {
  const reply = await swallow(
    call<Reply<'isCompleteKbis'>>({ auth: 'apiToken', method: 'GET', path: `${order(id)}/${what}` }, options),
    undefined,
  )
  return reply?.result
}
export const isAttenteCourrierOrFinalise = check('is-attente-courrier-or-finalise')
export const isCompleteKbis = check('is-complete-kbis')
export const isWaitingContract = check('is-waiting-contract')

/** Swallows errors (spec §8): undefined means it failed, and the customer was told. */
export const getUploadedDocuments = (id: number, options?: CallOptions) =>
  swallow(
    call<Reply<'uploadedDocuments'>>({ auth: 'apiToken', method: 'GET', path: `${order(id)}/uploaded-documents` }, options),
    undefined,
  )

export const getShares = (id: number, options?: CallOptions) =>
  call<Reply<'shares'>>({ auth: 'apiToken', method: 'GET', path: `${order(id)}/shares` }, options)

export const deleteShare = (id: number, shareId: number, options?: CallOptions) =>
  call<Reply<'deleteShare'>>({ auth: 'apiToken', method: 'DELETE', path: `${order(id)}/share-delete/${encode(shareId)}` }, options)

export const inviteCollaborators = (id: number, body: Body<'invite'>, options?: CallOptions) =>
  call<Reply<'invite'>>({ auth: 'apiToken', method: 'POST', path: `${order(id)}/invite`, body }, options)

export const getMandataires = (id: number, options?: CallOptions) =>
  call<Reply<'mandataires'>>({ auth: 'apiToken', method: 'GET', path: `${order(id)}/destinataire-mandataires` }, options)

export const deleteMandataire = (id: number, mandataireId: number, options?: CallOptions) =>
  call<Reply<'deleteMandataire'>>(
    { auth: 'apiToken', method: 'DELETE', path: `${order(id)}/destinataire-mandataires-delete/${encode(mandataireId)}` },
    options,
  )

export const addMandataire = (id: number, body: Body<'addMandataire'>, options?: CallOptions) =>
  call<Reply<'addMandataire'>>({ auth: 'apiToken', method: 'POST', path: `${order(id)}/destinataire-mandataires`, body }, options)

export const setQonto = (id: number, body: Body<'setQonto'>, options?: CallOptions) =>
  call<Reply<'setQonto'>>({ auth: 'apiToken', method: 'POST', path: `/api/domiciliation-orders/${encode(id)}:set-qonto`, body }, options)

export const setShine = (id: number, body: Body<'setShine'>, options?: CallOptions) =>
  call<Reply<'setShine'>>({ auth: 'apiToken', method: 'POST', path: `/api/domiciliation-orders/${encode(id)}:set-shine`, body }, options)

export const wantComptable = (id: number, options?: CallOptions) =>
  call<Reply<'wantComptable'>>({ auth: 'apiToken', method: 'GET', path: `/api-protected/want-comptable/${encode(id)}` }, options)
