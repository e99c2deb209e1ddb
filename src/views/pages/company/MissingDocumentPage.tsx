// /missing-document (PRODUCT.md): the documents the order still needs, one file input each (PDF,
// JPEG, PNG), sent with progress; once all are in, the customer reaches the dashboard.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type FormEvent, useRef } from 'react'
import { Link, useLocation } from 'wouter'
import type { MissingDocument, Order } from '../../../../server/contract/session.ts'
import { selectedOrder, type StartupContext } from '../../../machines/session/startup.machine.ts'
import { hasMissingDocuments } from '../../../machines/shared.ts'
import { type StartupRef, useFlows, useSession, useStartup } from '../../app-context.tsx'
import { Alert, BusyButton, Button, Centered, Field, Spinner } from '../../components/ui.tsx'
import { useArrivalAfter, useFocusWhenShown } from '../../components/useFocusWhenShown.ts'
import { BareLayout } from '../../layout/BareLayout.tsx'
import { color } from '../../theme.ts'
import { MAX_UPLOAD_LABEL } from '../../../../server/contract/rules/uploads.ts'

const Progress = styled('div')`
  margin: 1rem 0;
  progress { width: 100%; height: 0.75rem; accent-color: ${color.primary}; }
`

const WayOut = styled('nav')`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin-top: 1.5rem;
  padding-top: 1rem;
  border-top: 1px solid ${color.border};
`

const Sent = styled('p')`
  margin: 0 0 1rem;
  color: ${color.success};
  font-weight: 600;
`

export default function MissingDocumentPage() {
  const startup = useStartup()
  if (!startup) {
    return (
      <BareLayout title="Documents manquants">
        <p>Connectez-vous pour transmettre les documents demandés pour votre domiciliation.</p>
        <Link href="/login">Se connecter</Link>
      </BareLayout>
    )
  }
  return <WithStartup startup={startup} />
}

function WithStartup({ startup }: { startup: StartupRef }) {
  const loading = useSelector(startup, (s) => s.hasTag('loading'))
  const order = useSelector(startup, (s) => selectedOrder(s.context as StartupContext))
  if (loading) {
    return (
      <BareLayout title="Documents manquants">
        <Centered>
          <Spinner />
        </Centered>
      </BareLayout>
    )
  }
  if (!order || !hasMissingDocuments(order)) {
    return (
      <BareLayout title="Documents manquants">
        <p>Aucun document n’est attendu pour le moment{order ? ` pour ${order.raisonSociale}` : ''}.</p>
        <Link href="/tableau-de-bord">Accéder à mon tableau de bord</Link>
      </BareLayout>
    )
  }
  return <UploadForm key={order.id} order={order} documents={order.missingDocuments!} startup={startup} />
}

/**
 * The page stands alone (no menu, no header): its ways out (only « Envoyer mes documents » was there,
 * nothing led elsewhere but typing an address). Another domiciliation, when there are several: the selection screen.
 */
function WayOutLinks({ startup }: { startup: StartupRef }) {
  const session = useSession()
  const [, navigate] = useLocation()
  const several = useSelector(startup, (s) => (s.context as StartupContext).orders.length > 1)
  return (
    <WayOut aria-label="Autres choix">
      {several && (
        <Button
          type="button"
          $variant="ghost"
          onClick={() => {
            startup.send({ type: 'order.reopen' })
            navigate('/tableau-de-bord')
          }}
        >
          Choisir une autre domiciliation
        </Button>
      )}
      {/* The page is open to the signed-out too (it says to sign in): the sign-out leads to /login itself. */}
      <Button
        type="button"
        $variant="ghost"
        onClick={() => {
          session.send({ type: 'session.logout' })
          navigate('/login')
        }}
      >
        Se déconnecter
      </Button>
    </WayOut>
  )
}

function UploadForm({ order, documents, startup }: { order: Order; documents: MissingDocument[]; startup: StartupRef }) {
  const flows = useFlows('company')
  const actor = useActorRef(flows.identityUpload, { input: { orderId: order.id, documents } })
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const sent = useSelector(actor, (s) => s.context.sent)
  const fileErrors = useSelector(actor, (s) => s.context.fileErrors)
  const error = useSelector(actor, (s) => s.context.error)
  // Everything sent, the file still incomplete: no button (nothing left to send), the message takes the focus.
  const nothingToSend = useSelector(actor, (s) => s.matches('editing') && !s.can({ type: 'identity.submit' }))
  const message = useRef<HTMLDivElement>(null)
  useFocusWhenShown(nothingToSend, message)
  // All sent: the dashboard, where the focus goes to the title.
  useArrivalAfter(actor, (next) => next.matches('completed'))

  function submit(event: FormEvent) {
    event.preventDefault()
    actor.send({ type: 'identity.submit' })
  }

  return (
    <BareLayout title="Documents manquants" wide>
      <p>
        Pour finaliser la domiciliation de <strong>{order.raisonSociale}</strong>, transmettez-nous les documents suivants (PDF, JPEG ou
        PNG, {MAX_UPLOAD_LABEL} au maximum chacun).
      </p>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        {error && (
          <Alert $kind="error" role="alert" ref={message} tabIndex={-1}>
            {error}
          </Alert>
        )}
        {documents.map((doc) =>
          sent.includes(doc.type) ? (
            <Sent key={doc.type}>✓ {doc.label} : envoyé</Sent>
          ) : (
            <Field key={doc.type} id={`doc-${doc.type}`} label={doc.label} error={fileErrors[doc.type]}>
              <input
                id={`doc-${doc.type}`}
                type="file"
                accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png"
                disabled={busy}
                aria-invalid={!!fileErrors[doc.type]}
                onChange={(e) => {
                  const file = e.target.files?.[0]
                  if (file) actor.send({ type: 'identity.file', documentType: doc.type, file })
                }}
              />
            </Field>
          ),
        )}
        {busy && (
          <Progress role="status">
            <label htmlFor="identity-progress">
              Envoi en cours : {sent.length} / {documents.length} document{documents.length > 1 ? 's' : ''} transmis
            </label>
            <progress id="identity-progress" max={documents.length} value={sent.length} />
          </Progress>
        )}
        {!nothingToSend && (
          <BusyButton type="submit" busy={busy}>
            {busy ? 'Envoi…' : 'Envoyer mes documents'}
          </BusyButton>
        )}
      </form>
      <WayOutLinks startup={startup} />
    </BareLayout>
  )
}
