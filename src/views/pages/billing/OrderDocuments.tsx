// One order on Attestation et contrats: "Télécharger mon attestation de domiciliation" (then its code and public
// verification page), "Télécharger mon contrat", the Kbis filed (validated or awaiting the team's check, and its
// download), and the forwarding address.
import { useActorRef, useSelector } from '@xstate/react'
import { Link } from 'wouter'
import type { Contract, Order } from '../../../../server/contract/session.ts'
import type { DocumentRequest } from '../../../machines/billing/documentDownload.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Alert, BusyButton, formatDate } from '../../components/ui.tsx'
import { ForwardingAddress } from './ForwardingAddress.tsx'
import { Actions, OrderBlock } from './styles.ts'

function useDownload() {
  const flows = useFlows('billing')
  const actor = useActorRef(flows.documentDownload)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const certificate = useSelector(actor, (s) => s.context.certificate)
  return { busy, error, certificate, start: (request: DocumentRequest) => actor.send({ type: 'download.start', request }) }
}

/** Where the Kbis stands: the link of the bell's "Kbis validé" leads here. */
export function kbisStatus(contract: Contract): string {
  if (contract.kbisValidatedAt) return `Kbis validé par nos équipes le ${formatDate(contract.kbisValidatedAt)}.`
  if (contract.kbis) return 'Kbis reçu : nos équipes le vérifient, nous vous préviendrons dès sa validation.'
  return 'Aucun Kbis déposé pour le moment.'
}

export function OrderDocuments({ order, contract, titled }: { order: Order; contract: Contract | null; titled: boolean }) {
  const certificate = useDownload()
  const contractFile = useDownload()
  const kbisFile = useDownload()
  const headingId = `documents-${order.id}`
  return (
    <OrderBlock aria-labelledby={headingId}>
      <h3 id={headingId}>{titled ? order.raisonSociale : `Documents de ${order.raisonSociale}`}</h3>
      <Actions>
        <BusyButton
          type="button"
          busy={certificate.busy}
          onClick={() => certificate.start({ kind: 'certificate', orderId: order.id })}
          aria-label={titled && !certificate.busy ? `Télécharger mon attestation de domiciliation de ${order.raisonSociale}` : undefined}
        >
          {certificate.busy ? 'Préparation de l’attestation…' : 'Télécharger mon attestation de domiciliation'}
        </BusyButton>
        {contract && (
          <BusyButton
            type="button"
            $variant="secondary"
            busy={contractFile.busy}
            onClick={() => contractFile.start({ kind: 'contract', contractId: contract.id })}
            aria-label={titled && !contractFile.busy ? `Télécharger mon contrat de ${order.raisonSociale}` : undefined}
          >
            {contractFile.busy ? 'Préparation du contrat…' : 'Télécharger mon contrat'}
          </BusyButton>
        )}
        {contract?.kbis && (
          <BusyButton
            type="button"
            $variant="secondary"
            busy={kbisFile.busy}
            onClick={() => kbisFile.start({ kind: 'kbis', contractId: contract.id })}
            aria-label={titled && !kbisFile.busy ? `Télécharger mon Kbis de ${order.raisonSociale}` : undefined}
          >
            {kbisFile.busy ? 'Préparation du Kbis…' : 'Télécharger mon Kbis'}
          </BusyButton>
        )}
      </Actions>
      {contract && <p data-testid="kbis-status">{kbisStatus(contract)}</p>}
      {certificate.error && (
        <Alert $kind="error" role="alert">
          {certificate.error}
        </Alert>
      )}
      {contractFile.error && (
        <Alert $kind="error" role="alert">
          {contractFile.error}
        </Alert>
      )}
      {kbisFile.error && (
        <Alert $kind="error" role="alert">
          {kbisFile.error}
        </Alert>
      )}
      {certificate.certificate && (
        <Alert $kind="success" role="status">
          Attestation délivrée, code de vérification <strong>{certificate.certificate.code}</strong>. Toute personne qui la reçoit peut la
          vérifier sur <Link href={`/verification/${certificate.certificate.code}`}>sa page de vérification</Link> (ou avec son code QR).
        </Alert>
      )}
      {contract ? <ForwardingAddress contract={contract} /> : <p>Votre contrat est en cours de préparation.</p>}
    </OrderBlock>
  )
}
