// The company area's calls: the Kbis and the contract's address (contract calls authenticate with
// `Authorization: Bearer` and swallow every error, answering null: spec §6, §8), identity documents, bank partners and
// the accountant offer, legal submissions (the formalities ordered from the catalogue).
import type { ContractAddressBody } from '../../server/contract/company.ts'
import { type Body, call, type CallOptions, encode, type Query, type Reply, swallow } from './client.ts'

const contract = (id: number) => `/api-protected/contracts/${encode(id)}`
const putContract = (id: number, body: Body<'updateContract'>, options?: CallOptions) =>
  call<Reply<'updateContract'>>({ auth: 'bearer', method: 'PUT', path: contract(id), body }, options)

const order = (id: number) => `/api-protected/domiciliation-orders/${encode(id)}`

export const getLegalSubmissions = (query: Query<'legalSubmissions'> = {}, options?: CallOptions) =>
  call<Reply<'legalSubmissions'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/legal-submissions', query }, options)

export const createLegalSubmission = (body: Body<'createLegalSubmission'>, options?: CallOptions) =>
  call<Reply<'createLegalSubmission'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/legal-submissions', body }, options)

/** Files the Kbis (a data URL). Answers the response's `kbis`, or null when it failed. */
export const uploadKbis = async (id: number, kbis: string, options?: CallOptions) =>
  (await swallow(putContract(id, { kbis }, options), null))?.kbis ?? null

/** A free-form contract update. Answers the response's `kbis`, or null when it failed. */
export const updateContract = async (id: number, body: Body<'updateContract'>, options?: CallOptions) =>
  (await swallow(putContract(id, body, options), null))?.kbis ?? null

/** Changes the mail-forwarding address. Answers the updated contract, or null when it failed. */
export const updateContractAddress = (id: number, body: ContractAddressBody, options?: CallOptions) =>
  swallow(putContract(id, body, options), null)

export const getKbisFile = (id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'bearer', method: 'GET', path: `${contract(id)}/kbis`, responseType: 'blob' }, options)

/** Sends identity files (multipart: `orderId`, then one file per missing-document type). */
export const uploadIdentity = (form: FormData, options?: CallOptions) =>
  call<Reply<'uploadIdentity'>>({ auth: 'apiToken', method: 'POST', path: '/step-upload-identity', body: form }, options)

/** Swallows errors (spec §8): undefined means it failed, and the customer was told. */
export const getUploadedDocuments = (id: number, options?: CallOptions) =>
  swallow(
    call<Reply<'uploadedDocuments'>>({ auth: 'apiToken', method: 'GET', path: `${order(id)}/uploaded-documents` }, options),
    undefined,
  )

export const setQonto = (id: number, body: Body<'setQonto'>, options?: CallOptions) =>
  call<Reply<'setQonto'>>({ auth: 'apiToken', method: 'POST', path: `/api/domiciliation-orders/${encode(id)}:set-qonto`, body }, options)

export const setShine = (id: number, body: Body<'setShine'>, options?: CallOptions) =>
  call<Reply<'setShine'>>({ auth: 'apiToken', method: 'POST', path: `/api/domiciliation-orders/${encode(id)}:set-shine`, body }, options)

export const wantComptable = (id: number, options?: CallOptions) =>
  call<Reply<'wantComptable'>>({ auth: 'apiToken', method: 'GET', path: `/api-protected/want-comptable/${encode(id)}` }, options)
