// The billing area's calls of the back office (server/contract/billing-backoffice.ts): Résiliations, the termination
// requests; « Accepter » for an end date, « Contacter le client ».
import { type Body, type CallOptions, call, encode, type Reply } from './client.ts'

export const getTerminations = (options?: CallOptions) =>
  call<Reply<'operatorTerminations'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/terminations' }, options)

export const acceptTermination = (id: number, body: Body<'operatorAcceptTermination'>, options?: CallOptions) =>
  call<Reply<'operatorAcceptTermination'>>(
    { auth: 'session', method: 'POST', path: `/api/backoffice/terminations/${encode(id)}:accept`, body },
    options,
  )

export const contactTermination = (id: number, body: Body<'operatorContactTermination'>, options?: CallOptions) =>
  call<Reply<'operatorContactTermination'>>(
    { auth: 'session', method: 'POST', path: `/api/backoffice/terminations/${encode(id)}:contact`, body },
    options,
  )
