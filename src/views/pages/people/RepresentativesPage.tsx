// /mes-representants: the selected order's authorised recipients (mandataires), who may collect its
// mail and packages at the counter: first name, last name, e-mail, phone; add one, remove one after a
// confirmation. Reached from "Gestion de mon entreprise" and from the packages page.
import { useActorRef, useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import type { Order } from '../../../../server/contract/session.ts'
import type { representativesMachine } from '../../../machines/people/representatives.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, ErrorState, Spinner, TextField } from '../../components/ui.tsx'
import { Muted, PageCard, Row, Rows, Toolbar } from '../../components/page.tsx'
import type { PageProps } from '../page.ts'
import { OwnOrderGate } from './OrderGate.tsx'

type RepresentativesRef = ActorRefFrom<typeof representativesMachine>

export default function RepresentativesPage(_: PageProps) {
  return (
    <OwnOrderGate title="Mes représentants" what="les personnes qui peuvent retirer son courrier">
      {(order) => <Representatives key={order.id} order={order} />}
    </OwnOrderGate>
  )
}

function Representatives({ order }: { order: Order }) {
  const flows = useFlows('people')
  const actor = useActorRef(flows.representatives, { input: { orderId: order.id } })
  const representatives = useSelector(actor, (s) => s.context.representatives)
  const loading = useSelector(actor, (s) => s.hasTag('loading'))
  const loadError = useSelector(actor, (s) => (s.matches('failed') ? s.context.loadError : null))
  const adding = useSelector(actor, (s) => s.hasTag('form'))
  const confirming = useSelector(actor, (s) => s.hasTag('confirm'))
  return (
    <PageCard aria-labelledby="representatives-title">
      <Toolbar>
        {/* Focused by RemoveConfirmation once the removed row's "Retirer" is gone; never by Tab. */}
        <h2 id="representatives-title" tabIndex={-1}>
          Mes représentants
        </h2>
        <Button type="button" onClick={() => actor.send({ type: 'representative.new' })} disabled={loading || !!loadError}>
          Ajouter un représentant
        </Button>
      </Toolbar>
      <Muted>
        Les personnes autorisées à retirer le courrier et les colis de {order.raisonSociale} au comptoir, sur présentation d’une pièce
        d’identité.
      </Muted>
      {loading && <Spinner label="Chargement : vos représentants…" />}
      {loadError && <ErrorState message={loadError} onRetry={() => actor.send({ type: 'representatives.retry' })} />}
      {!loading &&
        !loadError &&
        (representatives.length === 0 ? (
          <p>Aucun représentant pour le moment : vous seul pouvez retirer le courrier.</p>
        ) : (
          <Rows aria-label="Représentants">
            {representatives.map((r) => (
              <Row key={r.id}>
                <div>
                  <strong>
                    {r.firstname} {r.lastname}
                  </strong>
                  <div>
                    <Muted>
                      {r.email} · <a href={`tel:${r.phone.replace(/\s/g, '')}`}>{r.phone}</a>
                    </Muted>
                  </div>
                </div>
                <Button
                  type="button"
                  $variant="ghost"
                  aria-label={`Retirer ${r.firstname} ${r.lastname}`}
                  onClick={() => actor.send({ type: 'representative.remove', representative: r })}
                >
                  Retirer
                </Button>
              </Row>
            ))}
          </Rows>
        ))}
      {adding && <RepresentativeForm actor={actor} />}
      {confirming && <RemoveConfirmation actor={actor} order={order} />}
    </PageCard>
  )
}

function RepresentativeForm({ actor }: { actor: RepresentativesRef }) {
  const draft = useSelector(actor, (s) => s.context.draft)
  const problems = useSelector(actor, (s) => s.context.problems)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const change = (patch: Partial<typeof draft>) => actor.send({ type: 'representative.change', draft: patch })
  const cancel = () => actor.send({ type: 'representative.cancel' })
  return (
    <Modal
      title="Ajouter un représentant"
      onClose={cancel}
      locked={busy}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            Annuler
          </Button>
          <Button type="submit" form="representative-form" disabled={busy}>
            {busy ? 'Enregistrement…' : 'Ajouter'}
          </Button>
        </>
      }
    >
      <form
        id="representative-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          actor.send({ type: 'representative.submit' })
        }}
      >
        {error && (
          <Alert $kind="error" role="alert">
            {error}
          </Alert>
        )}
        <TextField
          id="representative-firstname"
          label="Prénom"
          autoComplete="off"
          value={draft.firstname}
          error={problems.firstname}
          data-autofocus
          onChange={(firstname) => change({ firstname })}
        />
        <TextField
          id="representative-lastname"
          label="Nom"
          autoComplete="off"
          value={draft.lastname}
          error={problems.lastname}
          onChange={(lastname) => change({ lastname })}
        />
        <TextField
          id="representative-email"
          label="Adresse e-mail"
          type="email"
          inputMode="email"
          autoComplete="off"
          value={draft.email}
          error={problems.email}
          onChange={(email) => change({ email })}
        />
        <TextField
          id="representative-phone"
          label="Téléphone"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          value={draft.phone}
          error={problems.phone}
          hint="Un numéro français : 06 12 34 56 78 ou +33 6 12 34 56 78."
          onChange={(phone) => change({ phone })}
        />
      </form>
    </Modal>
  )
}

function RemoveConfirmation({ actor, order }: { actor: RepresentativesRef; order: Order }) {
  const representative = useSelector(actor, (s) => s.context.selected)!
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const cancel = () => actor.send({ type: 'representative.cancel' })
  return (
    <Modal
      title={`Retirer ${representative.firstname} ${representative.lastname} ?`}
      onClose={cancel}
      locked={busy}
      fallbackFocus={() => document.getElementById('representatives-title')}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            Annuler
          </Button>
          <Button
            type="button"
            $variant="danger"
            data-autofocus
            onClick={() => actor.send({ type: 'representative.confirm' })}
            disabled={busy}
          >
            {busy ? 'Retrait…' : 'Retirer le représentant'}
          </Button>
        </>
      }
    >
      <p>Cette personne ne pourra plus retirer le courrier ni les colis de {order.raisonSociale}.</p>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
    </Modal>
  )
}
