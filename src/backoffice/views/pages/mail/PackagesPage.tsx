// /operateur/colis: an arrival registered (order, carrier, sender, an optional photo), the packages waiting per order,
// and « Remis » on each: the handover dialog (packageDesk and handover machines).
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useState } from 'react'
import type { MailRoomPackage } from '../../../../../server/contract/mail-backoffice.ts'
import { CARRIERS } from '../../../../../server/contract/rules/carriers.ts'
import type { ArrivalValues } from '../../../machines/mail/packageDesk.machine.ts'
import { Alert, BusyButton, Button, ErrorState, Field, Spinner, TextField } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { formatDateTime, Inline, Panel, TableBox } from '../operators/admin.styles.ts'
import { HandoverDialog } from './HandoverDialog.tsx'
import { OrderPicker, type PickedOrder } from './OrderPicker.tsx'

function ArrivalForm({ desk }: { desk: ReturnType<typeof useDesk> }) {
  const problems = useSelector(desk, (s) => s.context.problems)
  const error = useSelector(desk, (s) => s.context.arrivalError)
  const sending = useSelector(desk, (s) => s.hasTag('registering'))
  const registeredCount = useSelector(desk, (s) => s.context.registeredCount)
  // The form starts again empty after each arrival registered.
  return <ArrivalFields key={registeredCount} desk={desk} problems={problems} error={error} sending={sending} />
}

function ArrivalFields({
  desk,
  problems,
  error,
  sending,
}: {
  desk: ReturnType<typeof useDesk>
  problems: Partial<Record<'orderId' | 'carrier' | 'sender' | 'photo', string>>
  error: string | null
  sending: boolean
}) {
  const [order, setOrder] = useState<PickedOrder | null>(null)
  const [carrier, setCarrier] = useState('')
  const [sender, setSender] = useState('')
  const [photo, setPhoto] = useState<ArrivalValues['photo']>(null)
  function submit(event: FormEvent) {
    event.preventDefault()
    desk.send({ type: 'arrival.send', values: { orderId: order?.id ?? null, carrier, sender, photo } })
  }
  return (
    <form onSubmit={submit} noValidate aria-busy={sending}>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      <OrderPicker label="Domiciliation" value={order} onChange={setOrder} error={problems.orderId} disabled={sending} />
      <Inline>
        <TextField
          id="arrival-carrier"
          label="Transporteur"
          value={carrier}
          onChange={setCarrier}
          error={problems.carrier}
          list="carriers"
          maxLength={100}
        />
        <datalist id="carriers">
          {CARRIERS.map((c) => (
            <option key={c.name} value={c.name} />
          ))}
        </datalist>
        <TextField id="arrival-sender" label="Expéditeur" value={sender} onChange={setSender} error={problems.sender} maxLength={200} />
        <Field id="arrival-photo" label="Photo (facultatif)" error={problems.photo}>
          <input
            id="arrival-photo"
            type="file"
            accept="image/jpeg,image/png,application/pdf"
            capture="environment"
            onChange={(e) => {
              const file = e.target.files?.[0]
              setPhoto(file ? { name: file.name, size: file.size, type: file.type, file } : null)
            }}
          />
        </Field>
      </Inline>
      <BusyButton type="submit" busy={sending}>
        {sending ? 'Enregistrement…' : 'Enregistrer l’arrivée'}
      </BusyButton>
    </form>
  )
}

const useDesk = () => useActorRef(useBackOffice().flows.packageDesk)

export default function PackagesPage() {
  const desk = useDesk()
  const waiting = useSelector(desk, (s) => s.context.waiting)
  const failed = useSelector(desk, (s) => s.matches({ list: 'failed' }))
  const error = useSelector(desk, (s) => s.context.error)
  const [handing, setHanding] = useState<MailRoomPackage | null>(null)
  return (
    <>
      <Panel aria-labelledby="arrivee">
        <h2 id="arrivee">Arrivée d’un colis</h2>
        <ArrivalForm desk={desk} />
      </Panel>
      <Panel aria-labelledby="a-retirer">
        <h2 id="a-retirer">Colis à retirer</h2>
        {failed && <ErrorState message={error!} onRetry={() => desk.send({ type: 'list.retry' })} />}
        {!waiting && !failed && <Spinner label="Chargement des colis…" />}
        {waiting && waiting.length === 0 && <p>Aucun colis n’attend d’être retiré.</p>}
        {waiting?.map((order) => (
          <section key={order.orderId} aria-labelledby={`colis-${order.orderId}`}>
            <h3 id={`colis-${order.orderId}`}>
              {order.raisonSociale} (n° {order.orderId}) : {order.packages.length} colis
            </h3>
            <TableBox>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Arrivé le</th>
                    <th scope="col">Transporteur</th>
                    <th scope="col">Expéditeur</th>
                    <th scope="col">Photo</th>
                    <th scope="col">
                      <span style={{ position: 'absolute', left: '-999px' }}>Action</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {order.packages.map((p) => (
                    <tr key={p.id}>
                      <td>{formatDateTime(p.receivedAt)}</td>
                      <td>{p.carrier}</td>
                      <td>{p.sender}</td>
                      <td>{p.hasPhoto ? 'Oui' : '—'}</td>
                      <td>
                        <Button
                          type="button"
                          onClick={() => setHanding(p)}
                          aria-label={`Remis : colis de ${p.sender} pour ${order.raisonSociale}`}
                        >
                          Remis
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          </section>
        ))}
      </Panel>
      {handing && (
        <HandoverDialog
          key={handing.id}
          parcel={handing}
          onClose={() => setHanding(null)}
          onDone={(id) => {
            desk.send({ type: 'package.handedOver', id })
            setHanding(null)
          }}
        />
      )}
    </>
  )
}
