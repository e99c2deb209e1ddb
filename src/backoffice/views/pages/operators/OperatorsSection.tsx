// Administration › Opérateurs: the list, « Inviter un opérateur » (its single-use link shown once), each operator's
// roles changed in place, « Désactiver » after a confirmation (operatorDirectory and operatorInvite machines).
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useState } from 'react'
import type { OperatorMe, OperatorSummary } from '../../../../../server/contract/operators.ts'
import type { OperatorRole } from '../../../../../server/contract/route-def.ts'
import { ROLE_LABELS, ROLES, rolesText } from '../../../../../server/contract/rules/backoffice.ts'
import { isEmail } from '../../../../machines/shared.ts'
import { Modal } from '../../../../views/components/Modal.tsx'
import { Alert, BusyButton, Button, ErrorState, Spinner, TextField } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { formatDateTime, Inline, Muted, Panel, TableBox } from './admin.styles.ts'
import { CopyButton } from './CopyButton.tsx'

export const NO_ROLE = 'Cochez au moins un rôle.'

function RoleChoice({
  idPrefix,
  roles,
  onChange,
  disabled,
  legend,
}: {
  idPrefix: string
  roles: OperatorRole[]
  onChange: (roles: OperatorRole[]) => void
  disabled?: boolean
  legend: string
}) {
  return (
    <fieldset disabled={disabled} style={{ border: 0, padding: 0, margin: 0 }}>
      <legend>{legend}</legend>
      <Inline>
        {ROLES.map((role) => (
          <label key={role} htmlFor={`${idPrefix}-${role}`}>
            <input
              id={`${idPrefix}-${role}`}
              type="checkbox"
              checked={roles.includes(role)}
              onChange={(e) =>
                onChange(e.target.checked ? ROLES.filter((r) => r === role || roles.includes(r)) : roles.filter((r) => r !== role))
              }
            />{' '}
            {ROLE_LABELS[role]}
          </label>
        ))}
      </Inline>
    </fieldset>
  )
}

function InviteForm({ onInvited }: { onInvited: (operator: OperatorSummary) => void }) {
  const { flows } = useBackOffice()
  // The list hears of each operator invited (its own actor, in OperatorsSection).
  const [machine] = useState(() => flows.operatorInvite.provide({ actions: { invited: (_, { operator }) => onInvited(operator) } }))
  const invite = useActorRef(machine)
  const busy = useSelector(invite, (s) => s.hasTag('busy'))
  const invited = useSelector(invite, (s) => s.context.invited)
  const serverError = useSelector(invite, (s) => s.context.error)
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [roles, setRoles] = useState<OperatorRole[]>([])
  const [errors, setErrors] = useState<{ email?: string; name?: string; roles?: string }>({})
  function submit(event: FormEvent) {
    event.preventDefault()
    const next = {
      email: isEmail(email) ? undefined : 'Saisissez une adresse e-mail valide.',
      name: name.trim() ? undefined : 'Saisissez le nom de l’opérateur.',
      roles: roles.length ? undefined : NO_ROLE,
    }
    setErrors(next)
    if (!next.email && !next.name && !next.roles)
      invite.send({ type: 'invite.send', values: { email: email.trim(), name: name.trim(), roles } })
  }
  function close() {
    invite.send({ type: 'invite.close' })
    setEmail('')
    setName('')
    setRoles([])
  }
  return (
    <Panel aria-labelledby="inviter">
      <h2 id="inviter">Inviter un opérateur</h2>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        {serverError && (
          <Alert $kind="error" role="alert">
            {serverError}
          </Alert>
        )}
        <Inline>
          <TextField id="invite-email" label="Adresse e-mail" type="email" value={email} onChange={setEmail} error={errors.email} />
          <TextField id="invite-name" label="Nom" value={name} onChange={setName} error={errors.name} />
        </Inline>
        <RoleChoice idPrefix="invite-role" legend="Rôles" roles={roles} onChange={setRoles} />
        {errors.roles && <p role="alert">{errors.roles}</p>}
        <p>
          <BusyButton type="submit" busy={busy}>
            {busy ? 'Envoi…' : 'Inviter'}
          </BusyButton>
        </p>
      </form>
      {invited && (
        <Modal title="Lien d’inscription" onClose={close} footer={<Button onClick={close}>J’ai transmis le lien</Button>}>
          <p>
            {invited.operator.name} ({rolesText(invited.operator.roles)}) est invité(e). Transmettez-lui ce lien : il ne sert qu’une fois,
            jusqu’au {formatDateTime(invited.enrolmentExpiresAt)}, et ne sera plus affiché.
          </p>
          <p>
            <code style={{ wordBreak: 'break-all' }}>{invited.enrolmentUrl}</code>
          </p>
          <CopyButton text={invited.enrolmentUrl} label="Copier le lien" />
        </Modal>
      )}
    </Panel>
  )
}

function RolesEditor({ operator, busy, onSave }: { operator: OperatorSummary; busy: boolean; onSave: (roles: OperatorRole[]) => void }) {
  const [roles, setRoles] = useState<OperatorRole[]>([...operator.roles])
  const changed = roles.length !== operator.roles.length || roles.some((r) => !operator.roles.includes(r))
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        if (roles.length && changed) onSave(roles)
      }}
    >
      <RoleChoice
        idPrefix={`roles-${operator.id}`}
        legend={`Rôles de ${operator.name}`}
        roles={roles}
        onChange={setRoles}
        disabled={busy || !operator.active}
      />
      {operator.active && (
        <Button type="submit" $variant="secondary" disabled={busy || !changed || roles.length === 0}>
          Enregistrer les rôles
        </Button>
      )}
    </form>
  )
}

export function OperatorsSection({ me }: { me: OperatorMe }) {
  const { flows } = useBackOffice()
  const directory = useActorRef(flows.operatorDirectory)
  const state = useSelector(directory, (s) => s.value as string)
  const operators = useSelector(directory, (s) => s.context.operators)
  const selectedId = useSelector(directory, (s) => s.context.selectedId)
  const error = useSelector(directory, (s) => s.context.error)
  const changeError = useSelector(directory, (s) => s.context.changeError)
  const busy = useSelector(directory, (s) => s.hasTag('busy'))
  const selected = operators.find((o) => o.id === selectedId)
  return (
    <>
      <InviteForm onInvited={(operator) => directory.send({ type: 'operator.invited', operator })} />
      <Panel aria-labelledby="operateurs">
        <h2 id="operateurs">Opérateurs</h2>
        {state === 'loading' && <Spinner label="Chargement des opérateurs…" />}
        {state === 'failed' && <ErrorState message={error!} onRetry={() => directory.send({ type: 'list.retry' })} />}
        {changeError && (
          <Alert $kind="error" role="alert">
            {changeError}
          </Alert>
        )}
        {state !== 'loading' && state !== 'failed' && (
          <TableBox>
            <table>
              <thead>
                <tr>
                  <th scope="col">Opérateur</th>
                  <th scope="col">État</th>
                  <th scope="col">Rôles</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {operators.map((operator) => (
                  <tr key={operator.id}>
                    <td>
                      {operator.name}
                      <br />
                      <Muted>{operator.email}</Muted>
                    </td>
                    <td>
                      {!operator.active
                        ? `Désactivé le ${formatDateTime(operator.deactivatedAt!)}`
                        : operator.enrolled
                          ? 'Actif'
                          : 'Invité, inscription à faire'}
                    </td>
                    <td>
                      <RolesEditor
                        operator={operator}
                        busy={busy && selectedId === operator.id}
                        onSave={(roles) => directory.send({ type: 'roles.save', id: operator.id, roles })}
                      />
                    </td>
                    <td>
                      {operator.active && operator.id !== me.id && (
                        <Button
                          type="button"
                          $variant="secondary"
                          disabled={busy}
                          onClick={() => directory.send({ type: 'deactivation.ask', id: operator.id })}
                          aria-label={`Désactiver ${operator.name}`}
                        >
                          Désactiver
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
      {(state === 'confirmingDeactivation' || state === 'deactivating') && selected && (
        <Modal
          title={`Désactiver ${selected.name} ?`}
          onClose={() => directory.send({ type: 'deactivation.cancel' })}
          locked={state === 'deactivating'}
          footer={
            <>
              <Button
                type="button"
                $variant="secondary"
                onClick={() => directory.send({ type: 'deactivation.cancel' })}
                disabled={state === 'deactivating'}
              >
                Annuler
              </Button>
              <BusyButton
                type="button"
                $variant="danger"
                busy={state === 'deactivating'}
                onClick={() => directory.send({ type: 'deactivation.confirm' })}
              >
                Désactiver
              </BusyButton>
            </>
          }
        >
          <p>
            {selected.name} ne pourra plus se connecter, et ses sessions ouvertes sont fermées tout de suite. Son historique reste dans le
            journal.
          </p>
        </Modal>
      )}
    </>
  )
}
