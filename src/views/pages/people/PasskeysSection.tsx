// "Clés d'accès" on /informations-personnelles: add one (named after the device), the list (name,
// added, last used), rename, remove after a confirmation.
import { useActorRef, useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import type { passkeysMachine } from '../../../machines/people/passkeys.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, BusyButton, Button, ErrorState, formatDate, Spinner, TextField } from '../../components/ui.tsx'
import { Muted, Row, Rows, Toolbar } from '../../components/page.tsx'
import { Section } from './Section.tsx'

type PasskeysRef = ActorRefFrom<typeof passkeysMachine>

/** Whether this browser can make and use passkeys at all. */
const supported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'

export function PasskeysSection() {
  const flows = useFlows('people')
  const actor = useActorRef(flows.passkeys)
  const passkeys = useSelector(actor, (s) => s.context.passkeys)
  const loading = useSelector(actor, (s) => s.hasTag('loading'))
  const loadError = useSelector(actor, (s) => (s.matches('failed') ? s.context.loadError : null))
  const adding = useSelector(actor, (s) => s.matches({ ready: 'adding' }))
  const error = useSelector(actor, (s) => (s.matches({ ready: 'idle' }) ? s.context.error : null))
  const renaming = useSelector(actor, (s) => s.hasTag('form'))
  const confirming = useSelector(actor, (s) => s.hasTag('confirm'))
  return (
    <Section id="passkeys-title" title="Clés d’accès">
      <Muted>
        Une clé d’accès vous connecte avec l’empreinte, le visage ou le code de votre appareil, sans mot de passe. Votre mot de passe reste
        valable.
      </Muted>
      {loading && <Spinner label="Chargement : vos clés d’accès…" />}
      {loadError && <ErrorState message={loadError} onRetry={() => actor.send({ type: 'passkeys.retry' })} />}
      {!loading && !loadError && (
        <>
          {passkeys.length === 0 ? (
            <p>Aucune clé d’accès pour le moment.</p>
          ) : (
            <Rows aria-label="Clés d’accès">
              {passkeys.map((p) => (
                <Row key={p.id}>
                  <div>
                    <strong>{p.name}</strong>
                    <div>
                      <Muted>
                        Ajoutée le {formatDate(p.createdAt)} ·{' '}
                        {p.lastUsedAt ? `utilisée le ${formatDate(p.lastUsedAt)}` : 'jamais utilisée'}
                      </Muted>
                    </div>
                  </div>
                  <div>
                    <Button
                      type="button"
                      $variant="secondary"
                      aria-label={`Renommer la clé ${p.name}`}
                      onClick={() => actor.send({ type: 'passkey.rename', passkey: p })}
                    >
                      Renommer
                    </Button>{' '}
                    <Button
                      type="button"
                      $variant="ghost"
                      aria-label={`Supprimer la clé ${p.name}`}
                      onClick={() => actor.send({ type: 'passkey.remove', passkey: p })}
                    >
                      Supprimer
                    </Button>
                  </div>
                </Row>
              ))}
            </Rows>
          )}
          {error && (
            <Alert $kind="error" role="alert">
              {error}
            </Alert>
          )}
          <Toolbar>
            {supported() ? (
              <BusyButton type="button" busy={adding} onClick={() => actor.send({ type: 'passkey.add' })}>
                {adding ? 'Suivez les indications de votre appareil…' : 'Ajouter une clé d’accès'}
              </BusyButton>
            ) : (
              <Muted>Ce navigateur ne permet pas d’utiliser des clés d’accès.</Muted>
            )}
          </Toolbar>
        </>
      )}
      {renaming && <RenameForm actor={actor} />}
      {confirming && <RemoveConfirmation actor={actor} />}
    </Section>
  )
}

function RenameForm({ actor }: { actor: PasskeysRef }) {
  const name = useSelector(actor, (s) => s.context.draftName)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const cancel = () => actor.send({ type: 'passkey.cancel' })
  return (
    <Modal
      title="Renommer la clé d’accès"
      onClose={cancel}
      locked={busy}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            Annuler
          </Button>
          <Button type="submit" form="passkey-name-form" disabled={busy}>
            {busy ? 'Enregistrement…' : 'Renommer'}
          </Button>
        </>
      }
    >
      <form
        id="passkey-name-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          actor.send({ type: 'passkey.submit' })
        }}
      >
        {error && (
          <Alert $kind="error" role="alert">
            {error}
          </Alert>
        )}
        <TextField
          id="passkey-name"
          label="Nom de la clé"
          value={name}
          maxLength={60}
          data-autofocus
          onChange={(value) => actor.send({ type: 'passkey.change', name: value })}
        />
      </form>
    </Modal>
  )
}

function RemoveConfirmation({ actor }: { actor: PasskeysRef }) {
  const passkey = useSelector(actor, (s) => s.context.selected)!
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const cancel = () => actor.send({ type: 'passkey.cancel' })
  return (
    <Modal
      title={`Supprimer « ${passkey.name} » ?`}
      onClose={cancel}
      locked={busy}
      footer={
        <>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            Garder la clé
          </Button>
          <Button type="button" $variant="danger" data-autofocus onClick={() => actor.send({ type: 'passkey.confirm' })} disabled={busy}>
            {busy ? 'Suppression…' : 'Supprimer la clé'}
          </Button>
        </>
      }
    >
      <p>Vous ne pourrez plus vous connecter avec cette clé. Votre mot de passe et vos autres clés restent valables.</p>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
    </Modal>
  )
}
