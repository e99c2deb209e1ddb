// Administration › Clés d’API: a named key created (the key shown once, with « Copier »), the keys listed by their first
// characters, « Révoquer » after a confirmation (apiKeys machine).
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useState } from 'react'
import { Modal } from '../../../../views/components/Modal.tsx'
import { Alert, BusyButton, Button, ErrorState, Spinner, TextField } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { formatDateTime, Inline, Muted, Panel, TableBox } from './admin.styles.ts'
import { CopyButton } from './CopyButton.tsx'

export const NAME_NEEDED = 'Donnez un nom à la clé (la machine qui l’utilisera, par exemple « Scanner salle 2 »).'

export function ApiKeysSection() {
  const { flows } = useBackOffice()
  const keys = useActorRef(flows.apiKeys)
  const state = useSelector(keys, (s) => s.value as string)
  const list = useSelector(keys, (s) => s.context.keys)
  const created = useSelector(keys, (s) => s.context.created)
  const selectedId = useSelector(keys, (s) => s.context.selectedId)
  const error = useSelector(keys, (s) => s.context.error)
  const changeError = useSelector(keys, (s) => s.context.changeError)
  const busy = useSelector(keys, (s) => s.hasTag('busy'))
  const [name, setName] = useState('')
  const [nameError, setNameError] = useState<string>()
  const selected = list.find((k) => k.id === selectedId)

  function create(event: FormEvent) {
    event.preventDefault()
    const problem = name.trim() ? undefined : NAME_NEEDED
    setNameError(problem)
    if (!problem) keys.send({ type: 'key.create', name: name.trim() })
  }
  function dismiss() {
    keys.send({ type: 'key.dismiss' })
    setName('')
  }

  return (
    <>
      <Panel aria-labelledby="nouvelle-cle">
        <h2 id="nouvelle-cle">Créer une clé d’API</h2>
        <p>
          Une clé par machine (un scanner, la facturation) : elle s’utilise comme jeton « Authorization: Bearer ». Elle n’est affichée
          qu’une fois.
        </p>
        <form onSubmit={create} noValidate aria-busy={state === 'creating'}>
          <Inline>
            <TextField id="key-name" label="Nom de la clé" value={name} onChange={setName} error={nameError} maxLength={80} />
            <BusyButton type="submit" busy={state === 'creating'} disabled={busy || state === 'loading'}>
              {state === 'creating' ? 'Création…' : 'Créer la clé'}
            </BusyButton>
          </Inline>
        </form>
      </Panel>
      <Panel aria-labelledby="cles">
        <h2 id="cles">Clés d’API</h2>
        {state === 'loading' && <Spinner label="Chargement des clés…" />}
        {state === 'failed' && <ErrorState message={error!} onRetry={() => keys.send({ type: 'list.retry' })} />}
        {changeError && (
          <Alert $kind="error" role="alert">
            {changeError}
          </Alert>
        )}
        {state !== 'loading' && state !== 'failed' && list.length === 0 && <p>Aucune clé d’API pour l’instant.</p>}
        {state !== 'loading' && state !== 'failed' && list.length > 0 && (
          <TableBox>
            <table>
              <thead>
                <tr>
                  <th scope="col">Nom</th>
                  <th scope="col">Début de la clé</th>
                  <th scope="col">Créée</th>
                  <th scope="col">Dernier usage</th>
                  <th scope="col">État</th>
                </tr>
              </thead>
              <tbody>
                {list.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td>
                      {formatDateTime(key.createdAt)}
                      <br />
                      <Muted>par {key.createdBy}</Muted>
                    </td>
                    <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Jamais'}</td>
                    <td>
                      {key.revokedAt ? (
                        `Révoquée le ${formatDateTime(key.revokedAt)}`
                      ) : (
                        <Button
                          type="button"
                          $variant="secondary"
                          disabled={busy}
                          aria-label={`Révoquer la clé ${key.name}`}
                          onClick={() => keys.send({ type: 'revocation.ask', id: key.id })}
                        >
                          Révoquer
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableBox>
        )}
      </Panel>
      {created && (
        <Modal
          title={`Clé « ${created.apiKey.name} » créée`}
          onClose={dismiss}
          footer={<Button onClick={dismiss}>J’ai copié la clé</Button>}
        >
          <Alert $kind="info">Copiez-la maintenant : elle ne sera plus jamais affichée. Seule son empreinte est conservée.</Alert>
          <p>
            <code style={{ wordBreak: 'break-all' }} data-testid="new-api-key">
              {created.key}
            </code>
          </p>
          <CopyButton text={created.key} label="Copier la clé" />
        </Modal>
      )}
      {(state === 'confirmingRevocation' || state === 'revoking') && selected && (
        <Modal
          title={`Révoquer la clé « ${selected.name} » ?`}
          onClose={() => keys.send({ type: 'revocation.cancel' })}
          locked={state === 'revoking'}
          footer={
            <>
              <Button
                type="button"
                $variant="secondary"
                onClick={() => keys.send({ type: 'revocation.cancel' })}
                disabled={state === 'revoking'}
              >
                Annuler
              </Button>
              <BusyButton
                type="button"
                $variant="danger"
                busy={state === 'revoking'}
                onClick={() => keys.send({ type: 'revocation.confirm' })}
              >
                Révoquer
              </BusyButton>
            </>
          }
        >
          <p>La machine qui l’utilise sera refusée dès son prochain appel. Une clé révoquée ne peut pas être rétablie.</p>
        </Modal>
      )}
    </>
  )
}
