// Contracts and identity documents (spec §7). Contract calls authenticate with
// `Authorization: Bearer` and swallow every error, answering null (spec §6, §8).
import { type Body, type CallOptions, call, encode, type Reply, swallow } from './client.ts'
import type { ContractAddressBody } from '../../server/contract/schemas.ts'

const contract = (id: number) => `/api-protected/contracts/${encode(id)}`
const putContract = (id: number, body: Body<'updateContract'>, options?: CallOptions) =>
  call<Reply<'updateContract'>>({ auth: 'bearer', method: 'PUT', path: contract(id), body }, options)

export const getContracts = (options?: CallOptions) =>
  call<Reply<'contracts'>>({ auth: 'bearer', method: 'GET', path: '/api-protected/contracts' }, options)

/** Files the Kbis (a data URL). Answers the response's `kbis`, or null when it failed. */
export const uploadKbis = async (id: number, kbis: string, options?: CallOptions) =>
  (await swallow(putContract(id, { kbis }, options), null))?.kbis ?? null

/** A free-form contract update. Answers the response's `kbis`, or null when it failed. */
export const updateContract = async (id: number, body: Body<'updateContract'>, options?: CallOptions) =>
  (await swallow(putContract(id, body, options), null))?.kbis ?? null

/** Changes the mail-forwarding address. Answers the updated contract, or null when it failed. */
export const updateContractAddress = (id: number, body: ContractAddressBody, options?: CallOptions) =>
  swallow(putContract(id, body, options), null)

/** billing: the domiciliation contract, as a PDF. */
export const getContractFile = (id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'bearer', method: 'GET', path: `${contract(id)}/file`, responseType: 'blob' }, options)

export const getKbisFile = (id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'bearer', method: 'GET', path: `${contract(id)}/kbis`, responseType: 'blob' }, options)

/** Sends identity files (multipart: `orderId`, then one file per missing-document type). */
export const uploadIdentity = (form: FormData, options?: CallOptions) =>
  call<Reply<'uploadIdentity'>>({ auth: 'apiToken', method: 'POST', path: '/step-upload-identity', body: form }, options)
