// Invoices, credit notes, meeting-room invoices and the accounting export (spec §7).
import { type Body, type CallOptions, call, encode, type Query, type Reply, swallow } from './client.ts'

export const getInvoiceYears = (options?: CallOptions) =>
  call<Reply<'invoiceYears'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/invoices/years' }, options)

export const getShareInvoiceYears = (options?: CallOptions) =>
  call<Reply<'shareInvoiceYears'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/invoices/years/share' }, options)

export const getInvoices = (query: Query<'invoices'> = {}, options?: CallOptions) =>
  call<Reply<'invoices'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/invoices', query }, options)

export const getShareInvoices = (query: Query<'shareInvoices'> = {}, options?: CallOptions) =>
  call<Reply<'shareInvoices'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/invoices/share', query }, options)

export const getCreditNotesByYear = (query: Query<'creditNotesByYear'> = {}, options?: CallOptions) =>
  call<Reply<'creditNotesByYear'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/creditnotes-by-year', query }, options)

export const getShareCreditNotesByYear = (query: Query<'shareCreditNotesByYear'> = {}, options?: CallOptions) =>
  call<Reply<'shareCreditNotesByYear'>>(
    { auth: 'apiToken', method: 'GET', path: '/api-protected/creditnotes-by-year/share', query },
    options,
  )

/** Calendar-invoice errors are ignored (spec §8): the list is empty, and the customer was told. */
export const getCalendarInvoices = (options?: CallOptions) =>
  swallow(
    call<Reply<'calendarInvoices'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/invoices/cal' }, options),
    [] as Reply<'calendarInvoices'>,
  )

export const getInvoiceFile = (id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'apiToken', method: 'GET', path: `/api-protected/invoices/${encode(id)}/file`, responseType: 'blob' }, options)

export const getCreditNoteFile = (id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'apiToken', method: 'GET', path: `/api-protected/creditnotes/${encode(id)}/file`, responseType: 'blob' }, options)

export const sendDextInvoices = (body: Body<'sendDextInvoices'>, options?: CallOptions) =>
  call<Reply<'sendDextInvoices'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/send-dext-invoices', body }, options)
