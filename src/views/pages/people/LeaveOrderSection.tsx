// « Domiciliations partagées avec moi » on /informations-personnelles: each order shared with the person, and « Quitter
// cette domiciliation » after a confirmation (leaveOrder machine). Shown only to a collaborator.
import { useActorRef, useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import type { leaveOrderMachine } from '../../../machines/people/leaveOrder.machine.ts'
import { useFlows, useStartup } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button } from '../../components/ui.tsx'
import { Row, Rows, useOrders } from '../../components/page.tsx'
import { Section } from './Section.tsx'

type LeaveOrderRef = ActorRefFrom<typeof leaveOrderMachine>

export function LeaveOrderSection() {
  const flows = useFlows('people')
  const actor = useActorRef(flows.leaveOrder)
  const shared = useOrders(useStartup()!).filter((o) => o.isShareOrder)
  const open = useSelector(actor, (s) => s.hasTag('dialog'))
  if (!shared.length) return null
  return (
    <Section id="shared-orders-title" title="Domiciliations partagées avec moi">
      <Rows aria-label="Domiciliations partagées avec moi">
        {shared.map((order) => (
          <Row key={order.id}>
            <strong>{order.raisonSociale}</strong>
            <Button
              type="button"
              $variant="secondary"
              aria-label={`Quitter cette domiciliation : ${order.raisonSociale}`}
              onClick={() => actor.send({ type: 'leave.open', order: { id: order.id, raisonSociale: order.raisonSociale } })}
            >
              Quitter cette domiciliation
            </Button>
          </Row>
        ))}
      </Rows>
      {open && <LeaveConfirmation actor={actor} />}
    </Section>
  )
}

function LeaveConfirmation({ actor }: { actor: LeaveOrderRef }) {
  const order = useSelector(actor, (s) => s.context.selected)!
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const cancel = () => actor.send({ type: 'leave.cancel' })
  return (
    <Modal
      title={`Quitter ${order.raisonSociale} ?`}
      onClose={cancel}
      locked={busy}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            Rester
          </Button>
          <Button type="button" $variant="danger" data-autofocus onClick={() => actor.send({ type: 'leave.confirm' })} disabled={busy}>
            {busy ? 'Départ…' : 'Quitter cette domiciliation'}
          </Button>
        </>
      }
    >
      <p>
        Vous ne verrez plus le courrier, les colis ni les factures de {order.raisonSociale}. Pour y revenir, il faudra que son titulaire
        vous invite à nouveau.
      </p>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
    </Modal>
  )
}
