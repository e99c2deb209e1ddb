// The mail area's calls of the back office (server/contract/mail-backoffice.ts): the orders to pick from, Numérisation
// (a scan uploaded with its progress, the shared queue, a review, publishing), Colis (an arrival, the packages waiting,
// who may collect one, the handover) and Réexpéditions (the pending requests, shipped or impossible).
import { type Body, type CallOptions, call, encode, type Query, type Reply, type UploadOptions, upload } from './client.ts'

export const getMailRoomOrders = (query: Query<'mailRoomOrders'>, options?: CallOptions) =>
  call<Reply<'mailRoomOrders'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/mail-room/orders', query }, options)

// --- Numérisation

/** One scan, one request; `onProgress` follows its body as it leaves. */
export const uploadScan = (body: Body<'mailRoomUploadScan'>, options?: UploadOptions) =>
  upload<Reply<'mailRoomUploadScan'>>({ method: 'POST', path: '/api/backoffice/scans', body }, options)

export const getScans = (options?: CallOptions) =>
  call<Reply<'mailRoomScans'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/scans' }, options)

export const getScan = (id: number, options?: CallOptions) =>
  call<Reply<'mailRoomScan'>>({ auth: 'session', method: 'GET', path: `/api/backoffice/scans/${encode(id)}` }, options)

export const getScanFile = (id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'session', method: 'GET', path: `/api/backoffice/scans/${encode(id)}/file`, responseType: 'blob' }, options)

export const getScanPage = (id: number, page: number, options?: CallOptions) =>
  call<Blob>(
    { auth: 'session', method: 'GET', path: `/api/backoffice/scans/${encode(id)}/pages/${encode(page)}`, responseType: 'blob' },
    options,
  )

export const reviewScan = (id: number, body: Body<'mailRoomReviewScan'>, options?: CallOptions) =>
  call<Reply<'mailRoomReviewScan'>>({ auth: 'session', method: 'PUT', path: `/api/backoffice/scans/${encode(id)}`, body }, options)

export const deleteScan = (id: number, options?: CallOptions) =>
  call<Reply<'mailRoomDeleteScan'>>({ auth: 'session', method: 'DELETE', path: `/api/backoffice/scans/${encode(id)}` }, options)

export const publishScan = (id: number, options?: CallOptions) =>
  call<Reply<'mailRoomPublishScan'>>({ auth: 'session', method: 'POST', path: `/api/backoffice/scans/${encode(id)}:publish` }, options)

export const publishScans = (body: Body<'mailRoomPublishScans'>, options?: CallOptions) =>
  call<Reply<'mailRoomPublishScans'>>({ auth: 'session', method: 'POST', path: '/api/backoffice/scans/publish', body }, options)

// --- Colis

export const registerPackage = (body: Body<'mailRoomRegisterPackage'>, options?: CallOptions) =>
  call<Reply<'mailRoomRegisterPackage'>>({ auth: 'session', method: 'POST', path: '/api/backoffice/packages', body }, options)

export const getWaitingPackages = (query: Query<'mailRoomWaitingPackages'>, options?: CallOptions) =>
  call<Reply<'mailRoomWaitingPackages'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/packages', query }, options)

export const getPackagePhoto = (id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'session', method: 'GET', path: `/api/backoffice/packages/${encode(id)}/photo`, responseType: 'blob' }, options)

export const getPackageCollectors = (id: number, options?: CallOptions) =>
  call<Reply<'mailRoomPackageCollectors'>>(
    { auth: 'session', method: 'GET', path: `/api/backoffice/packages/${encode(id)}/collectors` },
    options,
  )

export const handOverPackage = (id: number, body: Body<'mailRoomHandOverPackage'>, options?: CallOptions) =>
  call<Reply<'mailRoomHandOverPackage'>>(
    { auth: 'session', method: 'POST', path: `/api/backoffice/packages/${encode(id)}:hand-over`, body },
    options,
  )

// --- Réexpéditions

export const getForwardingRequests = (options?: CallOptions) =>
  call<Reply<'mailRoomForwardingRequests'>>({ auth: 'session', method: 'GET', path: '/api/backoffice/forwarding-requests' }, options)

export const markForwardingShipped = (id: number, body: Body<'mailRoomForwardingShipped'>, options?: CallOptions) =>
  call<Reply<'mailRoomForwardingShipped'>>(
    { auth: 'session', method: 'POST', path: `/api/backoffice/forwarding-requests/${encode(id)}:shipped`, body },
    options,
  )

export const markForwardingImpossible = (id: number, body: Body<'mailRoomForwardingImpossible'>, options?: CallOptions) =>
  call<Reply<'mailRoomForwardingImpossible'>>(
    { auth: 'session', method: 'POST', path: `/api/backoffice/forwarding-requests/${encode(id)}:impossible`, body },
    options,
  )
