// The notifications area's calls of the back office (server/contract/notifications-backoffice.ts): Messages, the
// conversations every « Signaler un problème » starts; an answer, « Clore », « Rouvrir ».
import { type Body, type CallOptions, call, encode, type Query, type Reply } from './client.ts'

export const getConversations = (query: Query<'operatorConversations'>, options?: CallOptions) =>
  call<Reply<'operatorConversations'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/conversations', query }, options)

export const getConversation = (id: number, options?: CallOptions) =>
  call<Reply<'operatorConversation'>>({ auth: 'session', method: 'GET', path: `/api/backoffice/conversations/${encode(id)}` }, options)

export const replyConversation = (id: number, body: Body<'operatorReplyConversation'>, options?: CallOptions) =>
  call<Reply<'operatorReplyConversation'>>(
    { auth: 'session', method: 'POST', path: `/api/backoffice/conversations/${encode(id)}/messages`, body },
    options,
  )

export const closeConversation = (id: number, options?: CallOptions) =>
  call<Reply<'operatorCloseConversation'>>(
    { auth: 'session', method: 'POST', path: `/api/backoffice/conversations/${encode(id)}:close` },
    options,
  )

export const reopenConversation = (id: number, options?: CallOptions) =>
  call<Reply<'operatorReopenConversation'>>(
    { auth: 'session', method: 'POST', path: `/api/backoffice/conversations/${encode(id)}:reopen` },
    options,
  )
