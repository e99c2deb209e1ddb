// The company area's own calls: legal submissions (the formalities ordered from the catalogue).
import { type Body, type CallOptions, call, type Query, type Reply } from './client.ts'

export const getLegalSubmissions = (query: Query<'legalSubmissions'> = {}, options?: CallOptions) =>
  call<Reply<'legalSubmissions'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/legal-submissions', query }, options)

export const createLegalSubmission = (body: Body<'createLegalSubmission'>, options?: CallOptions) =>
  call<Reply<'createLegalSubmission'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/legal-submissions', body }, options)
