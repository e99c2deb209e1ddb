// Mail: letters, packages, courier requests and folders (spec §7).
import { type Body, type CallOptions, call, encode, type Query, type Reply } from './client.ts'

export const getPackages = (query: Query<'packages'> = {}, options?: CallOptions) =>
  call<Reply<'packages'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/user-packages', query }, options)

export const getSharePackages = (query: Query<'sharePackages'> = {}, options?: CallOptions) =>
  call<Reply<'sharePackages'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/user-packages/share', query }, options)

export const getCourierRequests = (query: Query<'courierRequests'> = {}, options?: CallOptions) =>
  call<Reply<'courierRequests'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/user-demandes-courrier', query }, options)

export const getShareCourierRequests = (query: Query<'shareCourierRequests'> = {}, options?: CallOptions) =>
  call<Reply<'shareCourierRequests'>>(
    { auth: 'apiToken', method: 'GET', path: '/api-protected/user-demandes-courrier/share', query },
    options,
  )

export const removeCourierRequest = (body: Body<'removeCourierRequest'>, options?: CallOptions) =>
  call<Reply<'removeCourierRequest'>>(
    { auth: 'apiToken', method: 'POST', path: '/api-protected/user-demandes-courrier/remove', body },
    options,
  )

export const getDocuments = (query: Query<'documents'> = {}, options?: CallOptions) =>
  call<Reply<'documents'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/documents', query }, options)

export const updateDocument = (id: number, body: Body<'updateDocument'>, options?: CallOptions) =>
  call<Reply<'updateDocument'>>({ auth: 'apiToken', method: 'PUT', path: `/api-protected/documents/${encode(id)}`, body }, options)

export const getDocumentFile = (id: number, options?: CallOptions) =>
  call<Blob>({ auth: 'apiToken', method: 'GET', path: `/api-protected/documents/${encode(id)}/file`, responseType: 'blob' }, options)

export const sendDocuments = (body: Body<'sendDocuments'>, options?: CallOptions) =>
  call<Reply<'sendDocuments'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/send-documents', body }, options)

export const getFolders = (query: Query<'folders'> = {}, options?: CallOptions) =>
  call<Reply<'folders'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/folders', query }, options)

export const getShareFolders = (options?: CallOptions) =>
  call<Reply<'shareFolders'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/share-folders' }, options)

export const createFolder = (body: Body<'createFolder'>, options?: CallOptions) =>
  call<Reply<'createFolder'>>({ auth: 'apiToken', method: 'POST', path: '/api-protected/folders', body }, options)

export const updateFolder = (id: number, body: Body<'updateFolder'>, options?: CallOptions) =>
  call<Reply<'updateFolder'>>({ auth: 'apiToken', method: 'PUT', path: `/api-protected/folders/${encode(id)}`, body }, options)

export const deleteFolder = (id: number, options?: CallOptions) =>
  call<Reply<'deleteFolder'>>({ auth: 'apiToken', method: 'DELETE', path: `/api-protected/folders/${encode(id)}` }, options)

// mail pipeline: page images, search in the letters' text, deadlines found in them.
export const getDocumentPage = (id: number, page: number, options?: CallOptions) =>
  call<Blob>(
    { auth: 'apiToken', method: 'GET', path: `/api-protected/documents/${encode(id)}/pages/${encode(page)}`, responseType: 'blob' },
    options,
  )

export const searchDocuments = (query: Query<'documentSearch'>, options?: CallOptions) =>
  call<Reply<'documentSearch'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/documents/search', query }, options)

export const getLetterDeadlines = (query: Query<'letterDeadlines'> = {}, options?: CallOptions) =>
  call<Reply<'letterDeadlines'>>({ auth: 'apiToken', method: 'GET', path: '/api-protected/letter-deadlines', query }, options)
