// /mes-collaborateurs (owner of the selected order only): the people it is shared with (e-mail, name
// once they accepted, "Invitation envoyée", "Invitation expirée" or "Actif", since when), "Inviter"
// several addresses at once, "Renvoyer l’invitation" on a pending one, "Retirer" after a
// confirmation, and "Recommander {brand}".
import { useActorRef, useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import type { Share } from '../../../../server/contract/people.ts'
import type { Order } from '../../../../server/contract/session.ts'
import type { collaboratorsMachine } from '../../../machines/people/collaborators.machine.ts'
import type { StartupContext } from '../../../machines/session/startup.machine.ts'
import { useFlows, useStartup } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, ErrorState, Field, formatDate, Spinner } from '../../components/ui.tsx'
import { Badge, Muted, PageCard, Row, Rows, Toolbar } from '../../components/page.tsx'
import type { PageProps } from '../page.ts'
import { OwnOrderGate } from './OrderGate.tsx'
import { ReferralCard } from './ReferralCard.tsx'

type CollaboratorsRef = ActorRefFrom<typeof collaboratorsMachine>

export default function CollaboratorsPage(_: PageProps) {
  return (
    <OwnOrderGate title="Mes collaborateurs" what="les personnes qui consultent son courrier">
      {(order) => (
        <>
          <Collaborators key={order.id} order={order} />
          <ReferralCard />
        </>
      )}
    </OwnOrderGate>
  )
}

function Collaborators({ order }: { order: Order }) {
  const flows = useFlows('people')
  const startup = useStartup()!
  const ownEmail = useSelector(startup, (s) => (s.context as StartupContext).user?.email ?? '')
  const actor = useActorRef(flows.collaborators, { input: { orderId: order.id, ownEmail } })
  const shares = useSelector(actor, (s) => s.context.shares)
  const loading = useSelector(actor, (s) => s.hasTag('loading'))
  const loadError = useSelector(actor, (s) => (s.matches('failed') ? s.context.loadError : null))
  const inviting = useSelector(actor, (s) => s.hasTag('form'))
  const confirming = useSelector(actor, (s) => s.hasTag('confirm'))
  const resending = useSelector(actor, (s) => (s.matches({ ready: { sendingInvites: 'fromRow' } }) ? s.context.sending!.emails[0] : null))
  const now = new Date()
  return (
    <PageCard aria-labelledby="collaborators-title">
      <Toolbar>
        {/* Focused by RemoveConfirmation once the removed row's "Retirer" is gone; never by Tab. */}
        <h2 id="collaborators-title" tabIndex={-1}>
          Mes collaborateurs
        </h2>
        <Button type="button" onClick={() => actor.send({ type: 'invite.open' })} disabled={loading || !!loadError}>
          Inviter
        </Button>
      </Toolbar>
      <Muted>
        Vos collaborateurs consultent le courrier, les colis et les factures de {order.raisonSociale} et peuvent classer les courriers ; ils
        ne gèrent ni l’abonnement, ni le paiement, ni les collaborateurs.
      </Muted>
      {loading && <Spinner label="Chargement : vos collaborateurs…" />}
      {loadError && <ErrorState message={loadError} onRetry={() => actor.send({ type: 'collaborators.retry' })} />}
      {!loading &&
        !loadError &&
        (shares.length === 0 ? (
          <p>Aucun collaborateur pour le moment : invitez une personne pour partager le courrier.</p>
        ) : (
          <Rows aria-label="Collaborateurs">
            {shares.map((s) => (
              <Row key={s.id}>
                <div>
                  <strong>{s.firstname || s.lastname ? `${s.firstname ?? ''} ${s.lastname ?? ''}`.trim() : s.email}</strong>
                  {(s.firstname || s.lastname) && (
                    <div>
                      <Muted>{s.email}</Muted>
                    </div>
                  )}
                  <div>
                    <Muted>{statusLine(s, now)}</Muted>
                  </div>
                </div>
                <div>
                  {s.status === 'active' ? (
                    <Badge $tone="success">Actif</Badge>
                  ) : expired(s, now) ? (
                    <Badge $tone="danger">Invitation expirée</Badge>
                  ) : (
                    <Badge $tone="warning">Invitation envoyée</Badge>
                  )}{' '}
                  {/* Never disabled while sending: a disabled button would drop the focus to the page. */}
                  {s.status === 'invitée' && (
                    <Button
                      type="button"
                      $variant="ghost"
                      aria-label={`Renvoyer l’invitation à ${s.email}`}
                      onClick={() => actor.send({ type: 'invite.resend', share: s })}
                    >
                      {resending === s.email ? 'Envoi…' : 'Renvoyer l’invitation'}
                    </Button>
                  )}
                  <Button
                    type="button"
                    $variant="ghost"
                    aria-label={`Retirer ${s.email}`}
                    onClick={() => actor.send({ type: 'share.remove', share: s })}
                  >
                    Retirer
                  </Button>
                </div>
              </Row>
            ))}
          </Rows>
        ))}
      {inviting && <InviteForm actor={actor} order={order} />}
      {confirming && <RemoveConfirmation actor={actor} order={order} />}
    </PageCard>
  )
}

/** A pending invitation whose last link is past its date (the link then says it expired). */
const expired = (share: Share, now: Date) =>
  share.status === 'invitée' && share.invitationExpiresAt !== null && new Date(share.invitationExpiresAt) <= now

function statusLine(share: Share, now: Date): string {
  if (share.status === 'active') return share.acceptedAt ? `Actif depuis le ${formatDate(share.acceptedAt)}` : 'Actif'
  if (expired(share, now)) return `Invitation expirée le ${formatDate(share.invitationExpiresAt!)}`
  return `Invitation envoyée le ${formatDate(share.invitationSentAt ?? share.createdAt)}`
}

function InviteForm({ actor, order }: { actor: CollaboratorsRef; order: Order }) {
  const draft = useSelector(actor, (s) => s.context.draft)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const cancel = () => actor.send({ type: 'invite.cancel' })
  return (
    <Modal
      title="Inviter des collaborateurs"
      onClose={cancel}
      locked={busy}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            Annuler
          </Button>
          <Button type="submit" form="invite-form" disabled={busy}>
            {busy ? 'Envoi…' : 'Envoyer les invitations'}
          </Button>
        </>
      }
    >
      <form
        id="invite-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          actor.send({ type: 'invite.submit' })
        }}
      >
        {error && (
          <Alert $kind="error" role="alert">
            {error}
          </Alert>
        )}
        <Field
          id="invite-emails"
          label="Adresses e-mail"
          hint="Plusieurs adresses à la fois : séparez-les par des virgules, des espaces ou des retours à la ligne."
        >
          <textarea
            id="invite-emails"
            rows={4}
            value={draft}
            data-autofocus
            aria-invalid={!!error}
            aria-describedby="invite-emails-hint"
            onChange={(e) => actor.send({ type: 'invite.change', text: e.target.value })}
          />
        </Field>
        <Muted>
          Chaque personne reçoit un lien valable 7 jours ; elle accède au courrier de {order.raisonSociale} une fois l’invitation acceptée.
        </Muted>
      </form>
    </Modal>
  )
}

function RemoveConfirmation({ actor, order }: { actor: CollaboratorsRef; order: Order }) {
  const share = useSelector(actor, (s) => s.context.selected)!
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const cancel = () => actor.send({ type: 'share.cancel' })
  return (
    <Modal
      title={`Retirer ${share.email} ?`}
      onClose={cancel}
      locked={busy}
      fallbackFocus={() => document.getElementById('collaborators-title')}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            Annuler
          </Button>
          <Button type="button" $variant="danger" data-autofocus onClick={() => actor.send({ type: 'share.confirm' })} disabled={busy}>
            {busy ? 'Retrait…' : 'Retirer l’accès'}
          </Button>
        </>
      }
    >
      <p>
        {share.status === 'active'
          ? `Cette personne n’aura plus accès au courrier de ${order.raisonSociale}, dès maintenant.`
          : 'Le lien de son invitation ne fonctionnera plus.'}
      </p>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
    </Modal>
  )
}
