// The order of a scan or a package, chosen in a list the operator narrows by typing (company, owner, SIREN, order
// number): a search field and the list under it (orderPicker machine). The order chosen stays offered whatever is typed.
import { useActorRef, useSelector } from '@xstate/react'
import { useId, useState } from 'react'
import { Button, Field } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'

export interface PickedOrder {
  id: number
  raisonSociale: string
}

export function OrderPicker({
  label,
  value,
  onChange,
  error,
  disabled,
}: {
  label: string
  value: PickedOrder | null
  onChange: (order: PickedOrder | null) => void
  error?: string | undefined
  disabled?: boolean
}) {
  const picker = useActorRef(useBackOffice().flows.orderPicker)
  const orders = useSelector(picker, (s) => s.context.orders)
  const failed = useSelector(picker, (s) => s.matches('failed'))
  const searching = useSelector(picker, (s) => s.hasTag('loading') || s.matches('typing'))
  const pickerError = useSelector(picker, (s) => s.context.error)
  const [typed, setTyped] = useState('')
  const id = useId()
  const offered = value && !orders.some((o) => o.id === value.id) ? [value, ...orders] : orders
  return (
    <div>
      <Field id={`${id}-q`} label={`${label} : chercher`} hint="Société, titulaire, SIREN ou n° de commande">
        <input
          id={`${id}-q`}
          type="search"
          value={typed}
          disabled={disabled}
          aria-describedby={`${id}-q-hint`}
          onChange={(e) => {
            setTyped(e.target.value)
            picker.send({ type: 'picker.search', query: e.target.value })
          }}
        />
      </Field>
      <Field id={`${id}-list`} label={label} error={error ?? (failed ? pickerError : null)}>
        <select
          id={`${id}-list`}
          value={value ? String(value.id) : ''}
          disabled={disabled}
          aria-invalid={!!error}
          aria-busy={searching}
          onChange={(e) => {
            const order = offered.find((o) => String(o.id) === e.target.value)
            onChange(order ? { id: order.id, raisonSociale: order.raisonSociale } : null)
          }}
        >
          <option value="">{searching ? 'Recherche…' : offered.length ? 'Choisir…' : 'Aucune domiciliation trouvée'}</option>
          {offered.map((o) => (
            <option key={o.id} value={o.id}>
              {o.raisonSociale} (n° {o.id}
              {'ownerName' in o ? `, ${o.ownerName}` : ''}
              {'terminated' in o && o.terminated ? ', résiliée' : ''})
            </option>
          ))}
        </select>
      </Field>
      {failed && (
        <Button type="button" $variant="secondary" onClick={() => picker.send({ type: 'picker.retry' })}>
          Réessayer la recherche
        </Button>
      )}
    </div>
  )
}
