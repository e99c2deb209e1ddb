// /operateur/mes-cles-d-acces, « Mes clés d’accès »: the signed-in operator's passkeys (every role), their second factor
// beside the authenticator app's code: listed, added (the browser's prompt), removed after a confirmation
// (myPasskeys.machine.ts). A page of its own chunk: the WebAuthn prompt's code loads only when « Ajouter » is pressed.
import { useActorRef, useSelector } from '@xstate/react'
import { Modal } from '../../../../views/components/Modal.tsx'
import { Alert, BusyButton, Button, ErrorState, Spinner } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { passkeysSupported } from './SignInPage.tsx'
import { formatDateTime, Panel, TableBox } from './admin.styles.ts'

export const NO_WEBAUTHN = 'Ce navigateur ne permet pas d’utiliser des clés d’accès : continuez avec le code de votre application.'

export default function MyPasskeysPage() {
  const { flows } = useBackOffice()
  const passkeys = useActorRef(flows.myPasskeys)
  const state = useSelector(passkeys, (s) => s.value as string)
  const list = useSelector(passkeys, (s) => s.context.passkeys)
  const selectedId = useSelector(passkeys, (s) => s.context.selectedId)
  const error = useSelector(passkeys, (s) => s.context.error)
  const changeError = useSelector(passkeys, (s) => s.context.changeError)
  const busy = useSelector(passkeys, (s) => s.hasTag('busy'))
  const selected = list.find((p) => p.id === selectedId)
  const ready = state !== 'loading' && state !== 'failed'

  return (
    <>
      <Panel aria-labelledby="mes-cles">
        <h2 id="mes-cles">Clés d’accès</h2>
        <p>
          Une clé d’accès (empreinte, visage, code de l’appareil ou clé de sécurité) remplace le code de votre application
          d’authentification à la connexion, après le mot de passe. Le code reste valable.
        </p>
        {state === 'loading' && <Spinner label="Chargement de vos clés d’accès…" />}
        {state === 'failed' && <ErrorState message={error!} onRetry={() => passkeys.send({ type: 'list.retry' })} />}
        {changeError && (
          <Alert $kind="error" role="alert">
            {changeError}
          </Alert>
        )}
        {ready && list.length === 0 && <p>Aucune clé d’accès pour l’instant.</p>}
        {ready && list.length > 0 && (
          <TableBox>
            <table aria-label="Mes clés d’accès">
              <thead>
                <tr>
                  <th scope="col">Nom</th>
                  <th scope="col">Ajoutée</th>
                  <th scope="col">Dernier usage</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {list.map((passkey) => (
                  <tr key={passkey.id}>
                    <td>{passkey.name}</td>
                    <td>{formatDateTime(passkey.createdAt)}</td>
                    <td>{passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : 'Jamais'}</td>
                    <td>
                      <Button
                        type="button"
                        $variant="secondary"
                        disabled={busy}
                        aria-label={`Supprimer la clé ${passkey.name}`}
                        onClick={() => passkeys.send({ type: 'removal.ask', id: passkey.id })}
                      >
                        Supprimer
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableBox>
        )}
        {ready &&
          (passkeysSupported() ? (
            <BusyButton type="button" busy={state === 'adding'} disabled={busy} onClick={() => passkeys.send({ type: 'passkey.add' })}>
              {state === 'adding' ? 'Ajout…' : 'Ajouter une clé d’accès'}
            </BusyButton>
          ) : (
            <p>{NO_WEBAUTHN}</p>
          ))}
      </Panel>
      {(state === 'confirmingRemoval' || state === 'removing') && selected && (
        <Modal
          title={`Supprimer la clé « ${selected.name} » ?`}
          onClose={() => passkeys.send({ type: 'removal.cancel' })}
          locked={state === 'removing'}
          footer={
            <>
              <Button
                type="button"
                $variant="secondary"
                onClick={() => passkeys.send({ type: 'removal.cancel' })}
                disabled={state === 'removing'}
              >
                Annuler
              </Button>
              <BusyButton
                type="button"
                $variant="danger"
                busy={state === 'removing'}
                onClick={() => passkeys.send({ type: 'removal.confirm' })}
              >
                Supprimer
              </BusyButton>
            </>
          }
        >
          <p>Elle ne pourra plus servir à vous connecter. Le code de votre application d’authentification reste valable.</p>
        </Modal>
      )}
    </>
  )
}
