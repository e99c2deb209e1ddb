import type { AppDeps } from '../../deps.ts'
import type { DefineRoute } from '../../http/define-route.ts'
import { machineOf, pdfDataUrl, retryOf } from '../operator-input.ts'
import { ingestInvoice } from '../../services/ingest.ts'

export function billingOperatorRoutes(define: DefineRoute, deps: AppDeps) {
  define('operatorAddInvoice', async ({ params, body, req, reply }) => {
    const retry = retryOf(req, params.id, body)
    const decoded = pdfDataUrl(body.file)
    const { file: _file, reference, ...invoice } = body
    const { invoice: made, replayed } = await ingestInvoice(deps, {
      orderId: params.id,
      number: reference,
      ...invoice,
      bytes: decoded.bytes,
      retry,
      actor: machineOf(req),
    })
    if (replayed) reply.header('Idempotent-Replayed', 'true')
    return made
  })
}
