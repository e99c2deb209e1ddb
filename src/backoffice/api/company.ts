// The company area's calls of the back office (server/contract/company-backoffice.ts): Justificatifs (the documents
// waiting, one opened, its file, validated or refused) and Formalités juridiques (the submissions, one moved on).
import type { JustificatifKind } from '../../../server/contract/company-backoffice.ts'
import { type Body, type CallOptions, call, encode, type Reply } from './client.ts'

const justificatif = (kind: JustificatifKind, id: number) => `/api/backoffice/justificatifs/${encode(kind)}/${encode(id)}`

export const getJustificatifs = (options?: CallOptions) =>
  call<Reply<'complianceJustificatifs'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/justificatifs' }, options)

export const getJustificatif = (kind: JustificatifKind, id: number, options?: CallOptions) =>
  call<Reply<'complianceJustificatif'>>({ auth: 'session', method: 'GET', path: justificatif(kind, id) }, options)

export const getJustificatifFile = (kind: JustificatifKind, id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'session', method: 'GET', path: `${justificatif(kind, id)}/file`, responseType: 'blob' }, options)

export const validateJustificatif = (
  kind: JustificatifKind,
  id: number,
  body: Body<'complianceValidateJustificatif'>,
  options?: CallOptions,
) =>
  call<Reply<'complianceValidateJustificatif'>>(
    { auth: 'session', method: 'POST', path: `${justificatif(kind, id)}:validate`, body },
    options,
  )

export const refuseJustificatif = (kind: JustificatifKind, id: number, body: Body<'complianceRefuseJustificatif'>, options?: CallOptions) =>
  call<Reply<'complianceRefuseJustificatif'>>({ auth: 'session', method: 'POST', path: `${justificatif(kind, id)}:refuse`, body }, options)

export const getLegalSubmissions = (options?: CallOptions) =>
  call<Reply<'complianceLegalSubmissions'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/legal-submissions' }, options)

export const moveLegalSubmission = (id: number, body: Body<'complianceMoveLegalSubmission'>, options?: CallOptions) =>
  call<Reply<'complianceMoveLegalSubmission'>>(
    { auth: 'session', method: 'PUT', path: `/api/backoffice/legal-submissions/${encode(id)}/status`, body },
    options,
  )
