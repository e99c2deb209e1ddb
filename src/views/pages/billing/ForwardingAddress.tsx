// "Adresse de réexpédition": where forwarded mail goes, and its form (the five fields of spec §7); the saved address
// shows at once.
import { useActorRef, useSelector } from '@xstate/react'
import { useRef } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { Contract } from '../../../../server/contract/session.ts'
import type { AddressDraft, forwardingAddressMachine } from '../../../machines/billing/forwardingAddress.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Alert, BusyButton, Button, TextField, VisuallyHidden } from '../../components/ui.tsx'
import { Muted } from '../../components/page.tsx'
import { useFocusWhenShown } from '../../components/useFocusWhenShown.ts'
import { Actions } from './styles.ts'

type AddressRef = ActorRefFrom<typeof forwardingAddressMachine>

const fields: [keyof AddressDraft, string, string][] = [
  ['adressePostaleExpedition', 'Numéro et rue', 'address-line1'],
  ['adresseComplementPostaleExpedition', 'Complément d’adresse (facultatif)', 'address-line2'],
  ['codePostaleExpedition', 'Code postal', 'postal-code'],
  ['villePostaleExpedition', 'Ville', 'address-level2'],
  ['paysPostaleExpedition', 'Pays', 'country-name'],
]

const lines = (c: Contract) =>
  [
    c.adressePostaleExpedition,
    c.adresseComplementPostaleExpedition,
    [c.codePostaleExpedition, c.villePostaleExpedition].filter(Boolean).join(' '),
    c.paysPostaleExpedition,
  ].filter((line): line is string => !!line)

export function ForwardingAddress({ contract: initial }: { contract: Contract }) {
  const flows = useFlows('billing')
  const actor = useActorRef(flows.forwardingAddress, { input: { contract: initial } })
  const contract = useSelector(actor, (s) => s.context.contract)
  const editing = useSelector(actor, (s) => s.hasTag('form'))
  // Saved or cancelled: the form and its buttons are gone, "Modifier l’adresse" takes the focus.
  const edit = useRef<HTMLButtonElement>(null)
  useFocusWhenShown(!editing, edit)
  const headingId = `forwarding-${contract.id}`
  const address = lines(contract)
  return (
    <section aria-labelledby={headingId}>
      {/* One such region per company under 'Tous': each named after its company, for a screen reader's list of regions. */}
      <h4 id={headingId}>
        Adresse de réexpédition<VisuallyHidden>, {contract.raisonSociale}</VisuallyHidden>
      </h4>
      {editing ? (
        <AddressForm actor={actor} />
      ) : (
        <>
          {address.length ? (
            <address>
              {address.map((line) => (
                <div key={line}>{line}</div>
              ))}
            </address>
          ) : (
            <Muted>Aucune adresse de réexpédition enregistrée.</Muted>
          )}
          <Actions>
            {/* The accessible name starts with the visible words (WCAG 2.5.3), and names the company. */}
            <Button
              type="button"
              $variant="secondary"
              ref={edit}
              onClick={() => actor.send({ type: 'address.edit' })}
              aria-label={`${address.length ? 'Modifier l’adresse' : 'Indiquer une adresse'} de réexpédition de ${contract.raisonSociale}`}
            >
              {address.length ? 'Modifier l’adresse' : 'Indiquer une adresse'}
            </Button>
          </Actions>
        </>
      )}
    </section>
  )
}

function AddressForm({ actor }: { actor: AddressRef }) {
  const draft = useSelector(actor, (s) => s.context.draft)
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const id = useSelector(actor, (s) => s.context.contract.id)
  return (
    <form
      noValidate
      aria-busy={busy}
      onSubmit={(e) => {
        e.preventDefault()
        actor.send({ type: 'address.submit' })
      }}
    >
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      {fields.map(([field, label, autoComplete], index) => (
        <TextField
          key={field}
          id={`${field}-${id}`}
          label={label}
          value={draft[field]}
          autoComplete={autoComplete}
          error={fieldErrors[field]}
          inputMode={field === 'codePostaleExpedition' ? 'numeric' : undefined}
          autoFocus={index === 0}
          onChange={(value) => actor.send({ type: 'address.change', draft: { [field]: value } })}
        />
      ))}
      <Actions>
        {/* While saving, and once refused (the form stays), the focus stays on it. */}
        <BusyButton type="submit" busy={busy}>
          {busy ? 'Enregistrement…' : 'Enregistrer l’adresse'}
        </BusyButton>
        <Button type="button" $variant="secondary" onClick={() => actor.send({ type: 'address.cancel' })} disabled={busy}>
          Annuler
        </Button>
      </Actions>
    </form>
  )
}
