// /missing-document (PRODUCT.md): the documents the order still needs, one file input each (PDF,
// JPEG, PNG), sent with progress; once all are in, the customer reaches the dashboard.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { MissingDocument, Order } from '../../../../server/contract/session.ts'
import { selectedOrder, type StartupContext } from '../../../machines/session/startup.machine.ts'
import { hasMissingDocuments } from '../../../machines/shared.ts'
import { IDENTITY_STILL_INCOMPLETE } from '../../../machines/company/identityUpload.machine.ts'
import { stillToSend } from '../../../machines/company/uploadedDocuments.machine.ts'
import type { UploadedDocument } from '../../../../server/contract/company.ts'
import { type StartupRef, useFlows, useSession, useStartup } from '../../app-context.tsx'
import { Alert, BusyButton, Button, Centered, Field, formatDate, Spinner } from '../../components/ui.tsx'
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

const Refused = styled('span')`
  color: ${color.danger};
  font-weight: 600;
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
  return <WithUploaded key={order.id} order={order} startup={startup} />
}

const STATUS_TEXT = { 'à vérifier': 'reçu, en cours de vérification par notre équipe', validé: 'accepté' } as const

/** What was already sent, each with the provider's check (accepted, waiting, or refused and why); then the form for the rest. */
function WithUploaded({ order, startup }: { order: Order; startup: StartupRef }) {
  const flows = useFlows('company')
  const uploaded = useActorRef(flows.uploadedDocuments, { input: { orderId: order.id } })
  const loading = useSelector(uploaded, (s) => s.hasTag('loading'))
  const documents = useSelector(uploaded, (s) => s.context.documents)
  const onUploaded = useCallback((list: UploadedDocument[]) => uploaded.send({ type: 'uploaded.changed', documents: list }), [uploaded])
  // One layout while the list loads and after: its title takes the focus on arrival once, and keeps it.
  if (loading) {
    return (
      <BareLayout title="Documents manquants" wide>
        <Centered>
          <Spinner />
        </Centered>
      </BareLayout>
    )
  }
  return (
    <BareLayout title="Documents manquants" wide>
      <ToSend order={order} startup={startup} sent={documents} onUploaded={onUploaded}>
        {documents.length > 0 && (
          <section aria-labelledby="documents-envoyes">
            <h2 id="documents-envoyes">Documents déjà envoyés</h2>
            <ul>
              {documents.map((d) => (
                <li key={d.id}>
                  <strong>{d.label}</strong> ({d.fileName}, envoyé le {formatDate(d.uploadedAt)}) :{' '}
                  {d.status === 'refusé' ? (
                    <Refused>refusé, {d.refusal?.text ?? 'motif non précisé'} ; envoyez-en un autre</Refused>
                  ) : (
                    STATUS_TEXT[d.status]
                  )}
                </li>
              ))}
            </ul>
          </section>
        )}
      </ToSend>
    </BareLayout>
  )
}

/** The form for the documents still to send, as they were when the page opened (those sent meanwhile show as sent). */
function ToSend({
  order,
  startup,
  sent,
  onUploaded,
  children,
}: {
  order: Order
  startup: StartupRef
  sent: UploadedDocument[]
  onUploaded: (documents: UploadedDocument[]) => void
  children: ReactNode
}) {
  const [documents] = useState(() => stillToSend(order.missingDocuments!, sent))
  return (
    <UploadForm order={order} documents={documents} startup={startup} onUploaded={onUploaded}>
      {children}
    </UploadForm>
  )
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

function UploadForm({
  order,
  documents,
  startup,
  onUploaded,
  children,
}: {
  order: Order
  documents: MissingDocument[]
  startup: StartupRef
  onUploaded: (documents: UploadedDocument[]) => void
  children: ReactNode
}) {
  const flows = useFlows('company')
  const actor = useActorRef(flows.identityUpload, { input: { orderId: order.id, documents } })
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const sent = useSelector(actor, (s) => s.context.sent)
  const fileErrors = useSelector(actor, (s) => s.context.fileErrors)
  const error = useSelector(actor, (s) => s.context.error)
  // Everything sent, the file still incomplete: no button (nothing left to send), the message takes the focus.
  const nothingToSend = useSelector(actor, (s) => s.matches('editing') && !s.can({ type: 'identity.submit' }))
  const reply = useSelector(actor, (s) => s.context.reply)
  useEffect(() => {
    if (reply?.uploaded.length) onUploaded(reply.uploaded)
  }, [reply, onUploaded])
  const message = useRef<HTMLDivElement>(null)
  useFocusWhenShown(nothingToSend, message)
  // All sent: the dashboard, where the focus goes to the title.
  useArrivalAfter(actor, (next) => next.matches('completed'))

  function submit(event: FormEvent) {
    event.preventDefault()
    actor.send({ type: 'identity.submit' })
  }

  return (
    <>
      <p>
        Pour finaliser la domiciliation de <strong>{order.raisonSociale}</strong>, transmettez-nous les documents suivants (PDF, JPEG ou
        PNG, {MAX_UPLOAD_LABEL} au maximum chacun).
      </p>
      {children}
      {documents.length === 0 && !error && (
        <Alert $kind="info" role="status">
          {IDENTITY_STILL_INCOMPLETE}
        </Alert>
      )}
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
        {!nothingToSend && documents.length > 0 && (
          <BusyButton type="submit" busy={busy}>
            {busy ? 'Envoi…' : 'Envoyer mes documents'}
          </BusyButton>
        )}
      </form>
      <WayOutLinks startup={startup} />
    </>
  )
}
