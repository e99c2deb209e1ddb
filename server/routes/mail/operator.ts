import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { machineOf, pdfDataUrl, retryOf } from '../operator-input.ts'
import { ingestLetter, ingestPackage } from '../../services/ingest.ts'

export function mailOperatorRoutes(define: DefineRoute, deps: AppDeps) {
  define('operatorAddDocument', async ({ params, body, req, reply }) => {
    const retry = retryOf(req, params.id, body)
    const decoded = pdfDataUrl(body.file)
    const { document, link, notified, notificationFailures, replayed } = await ingestLetter(deps, {
      orderId: params.id,
      sender: body.sender,
      kind: body.kind,
      bytes: decoded.bytes,
      receivedAt: body.receivedAt,
      retry,
      actor: machineOf(req),
    })
    if (replayed) reply.header('Idempotent-Replayed', 'true')
    if (notificationFailures.length)
      req.log.error({ documentId: document.id, notificationFailures }, 'notification du nouveau courrier impossible')
    return { document, link, notified }
  })

  define('operatorAddPackage', async ({ params, body, req, reply }) => {
    const { parcel, notificationFailures, replayed } = await ingestPackage(deps, {
      orderId: params.id,
      ...body,
      retry: retryOf(req, params.id, body),
      actor: machineOf(req),
    })
    if (replayed) reply.header('Idempotent-Replayed', 'true')
    if (notificationFailures.length)
      req.log.error({ packageId: parcel.id, notificationFailures }, 'notification du nouveau colis impossible')
    return parcel
  })
}
