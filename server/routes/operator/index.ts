// The operators' way in (Authorization: Bearer <OPERATOR_TOKEN>): list the orders, add a scanned
// letter, a package or an invoice. The same service backs `npm run ingest` (scripts/ingest.ts).
import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { badRequest } from '../../http/errors.ts'
import { listOrdersForOperators } from '../../db/repositories/orders.ts'
import { decodeDataUrl } from '../../services/file-types.ts'
import { ingestInvoice, ingestLetter, ingestPackage } from '../../services/ingest.ts'

export function operatorRoutes(define: DefineRoute, deps: AppDeps) {
  define('operatorOrders', async () => listOrdersForOperators(deps.db))

  define('operatorAddDocument', async ({ params, body, req }) => {
    const decoded = decodeDataUrl(body.file)
    if (!decoded) throw badRequest('Le champ « file » doit être un PDF encodé en data URL (data:application/pdf;base64,…).', 'BAD_DATA_URL')
    const { document, link, notified, notificationFailures } = await ingestLetter(deps, {
      orderId: params.id, sender: body.sender, kind: body.kind, bytes: decoded.bytes, receivedAt: body.receivedAt,
    })
    if (notificationFailures.length) req.log.error({ documentId: document.id, notificationFailures }, 'notification du nouveau courrier impossible')
    return { document, link, notified }
  })

  define('operatorAddPackage', async ({ params, body, req }) => {
    const { parcel, notificationFailures } = await ingestPackage(deps, { orderId: params.id, ...body })
    if (notificationFailures.length) req.log.error({ packageId: parcel.id, notificationFailures }, 'notification du nouveau colis impossible')
    return parcel
  })

  define('operatorAddInvoice', async ({ params, body }) => {
    const decoded = decodeDataUrl(body.file)
    if (!decoded) throw badRequest('Le champ « file » doit être un PDF encodé en data URL (data:application/pdf;base64,…).', 'BAD_DATA_URL')
    const { file: _file, reference, ...invoice } = body
    return ingestInvoice(deps, { orderId: params.id, number: reference, ...invoice, bytes: decoded.bytes })
  })
}
