// /mes-courriers/export-comptable: pick invoices and letters, send them to the accounting inbox
// (Dext) with POST send-dext-invoices, with progress and a clear result; the address is remembered.
// The export outlives the page (wiring/kept.ts): left while it runs, it goes on, a toast says how it
// ended, and coming back shows its progress or its result.
import { useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import type { AccountingExportContext, ExportItem, ItemKind } from '../../../machines/mail/accountingExport.machine.ts'
import type { Notice } from '../../../machines/shared.ts'
import { keeperOf, type KeptLogic } from '../../../wiring/kept.ts'
import { type Flows, useFlows, useServices, useSession } from '../../app-context.tsx'
import { Alert, BusyButton, Button, Field, formatDate, formatEuros } from '../../components/ui.tsx'
import type { PageProps } from '../page.ts'
import { color, mq, radius } from '../../theme.ts'
import { type ListStatus, ListState, Muted, PageCard, usePortal, useResource, useSelectedOrder } from '../../components/page.tsx'
import { documentKind } from '../../components/labels.ts'
import { useFocusWhenShown } from '../../components/useFocusWhenShown.ts'

/** Where the export stands, for the progress bar: how many items were handled out of how many. */
const progressOf = (context: Pick<AccountingExportContext, 'total' | 'queue'>) => ({
  done: context.total - context.queue.length,
  total: context.total,
})

export const EXPORT_PATH = '/mes-courriers/export-comptable'
const pieces = (n: number) => `${n} pièce${n > 1 ? 's' : ''}`

/** How an export ended, for the customer who left its page meanwhile (a toast; the page shows the detail). */
export function exportNotice({ sent, failed, email }: Pick<AccountingExportContext, 'sent' | 'failed' | 'email'>): Notice {
  const detail = { to: EXPORT_PATH, label: 'Voir le détail' }
  if (!failed.length)
    return { kind: 'success', message: `Export comptable terminé : ${pieces(sent)} envoyée${sent > 1 ? 's' : ''} à ${email}.` }
  if (!sent)
    return {
      kind: 'error',
      message: `L’export comptable n’a pas abouti : ${failed.length > 1 ? `aucune des ${failed.length} pièces n’a pu être envoyée` : 'la pièce n’a pas pu être envoyée'}.`,
      link: detail,
    }
  return {
    kind: 'error',
    message: `Export comptable terminé : ${pieces(sent)} envoyée${sent > 1 ? 's' : ''} à ${email}, ${failed.length} n’${failed.length > 1 ? 'ont' : 'a'} pas pu l’être.`,
    link: detail,
  }
}

/** The export of this session: the one under way or not seen yet, or a new one (started with the page's input). */
function useKeptExport(flows: Flows<'mail'>, orderId: number | null) {
  const session = useSession()
  const { notify } = useServices()
  const keeper = keeperOf(session)
  const kept: KeptLogic<Flows<'mail'>['accountingExport']> = {
    logic: flows.accountingExport,
    running: (s) => s.hasTag('busy'),
    endedUnseen: (s) => notify(exportNotice(s.context)),
  }
  const [actor] = useState(() => keeper.take('accountingExport', kept, { email: flows.readDextEmail(), orderId }))
  useEffect(() => keeper.attach('accountingExport', actor), [keeper, actor])
  return actor
}

// On a desktop the two lists sit side by side, each scrolling in its box. On a phone a box scrolling inside the page
// cut its last letter at its edge and caught the thumb: the lists take the page's own scroll, and the button (with
// the progress while sending) stays at the bottom of the screen, however long the lists.
const Columns = styled('div')`
  display: grid;
  gap: 1rem;
  ${mq.desktop} { grid-template-columns: 1fr 1fr; }
  fieldset { border: 1px solid ${color.border}; border-radius: ${radius}; margin: 0; padding: 0.75rem; }
  /* Tab scrolls a box into view above the bar (the page’s scroll-padding, goober.ts), with the rest of its row (up to four lines). */
  input { scroll-margin-bottom: 5.5rem; }
  legend { font-weight: 700; padding: 0 0.25rem; }
  fieldset > button { margin-bottom: 0.25rem; }
  label { display: flex; gap: 0.6rem; align-items: flex-start; padding: 0.35rem 0; min-height: 44px; }
  input[type='checkbox'] { margin-top: 0.3rem; }
  fieldset[aria-disabled='true'] label { opacity: 0.6; cursor: not-allowed; }
`

/** A list's items: on a desktop they scroll inside the box, under its legend (a scrolling fieldset slid them over it). */
const Items = styled('div')`
  ${mq.desktop} { max-height: 22rem; overflow: auto; }
`

const SubmitBar = styled('div')`
  margin-top: 1rem;
  progress { width: 100%; height: 0.8rem; accent-color: ${color.primary}; }
  ${mq.mobile} {
    position: sticky;
    bottom: 0;
    z-index: 1;
    margin: 1rem -1.25rem 0;
    padding: 0.75rem 1.25rem;
    background: ${color.surface};
    border-top: 1px solid ${color.border};
    button[type='submit'] { width: 100%; }
  }
`

/** One list to pick from (the invoices or the letters): its box, its loading, empty and error states, a box per item. */
function PickList<T extends { id: number }>({
  legend,
  kind,
  list,
  label,
  empty,
  onRetry,
  busy,
  isPicked,
  toggle,
  pickAll,
  describe,
}: {
  legend: string
  kind: ItemKind
  list: { items: readonly T[] | undefined; status: ListStatus; error: string | null }
  label: string
  empty: string
  onRetry: () => void
  busy: boolean
  isPicked: (kind: ItemKind, id: number) => boolean
  toggle: (item: ExportItem) => void
  /** Picks these items of the list's kind, and no other of that kind (none: the list emptied of picks). */
  pickAll: (kind: ItemKind, ids: number[]) => void
  describe: (item: T) => ReactNode
}) {
  const items = list.items ?? []
  // The whole list in one press; once all are picked, the same button drops this list's picks (the other list's stay).
  const allPicked = items.length > 0 && items.every((item) => isPicked(kind, item.id))
  const all = allPicked ? 'Tout désélectionner' : 'Tout sélectionner'
  return (
    <fieldset aria-disabled={busy || undefined}>
      <legend>{legend}</legend>
      {items.length > 1 && (
        <Button
          type="button"
          $variant="secondary"
          aria-label={`${all} (${legend.toLowerCase()})`}
          aria-disabled={busy || undefined}
          onClick={() => pickAll(kind, allPicked ? [] : items.map((item) => item.id))}
        >
          {all}
        </Button>
      )}
      <Items>
        <ListState status={list.status} error={list.error} label={label} empty={empty} isEmpty={items.length === 0} onRetry={onRetry}>
          {items.map((item) => (
            <label key={item.id}>
              <input
                type="checkbox"
                checked={isPicked(kind, item.id)}
                aria-disabled={busy || undefined}
                onChange={() => toggle({ kind, id: item.id })}
              />
              <span>{describe(item)}</span>
            </label>
          ))}
        </ListState>
      </Items>
    </fieldset>
  )
}

export default function AccountingExportPage(_: PageProps) {
  const flows = useFlows('mail')
  const { startup, data } = usePortal()
  const orderId = useSelectedOrder(startup)?.id ?? null
  const invoices = useResource(data, 'invoices')
  const documents = useResource(data, 'documents')
  const actor = useKeptExport(flows, orderId)
  useEffect(() => actor.send({ type: 'order.change', orderId }), [actor, orderId])
  const email = useSelector(actor, (s) => s.context.email)
  const picked = useSelector(actor, (s) => s.context.picked)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const done = useSelector(actor, (s) => s.matches('done'))
  const progress = useSelector(actor, (s) => progressOf(s.context))
  const result = useSelector(actor, (s) => ({ sent: s.context.sent, failed: s.context.failed }))
  // The result replaces the form whose button was pressed: it takes the focus (never by Tab); 'Nouvel envoi' gives
  // it to the address, the first field of the form that comes back.
  const resultRef = useRef<HTMLDivElement>(null)
  const emailRef = useRef<HTMLInputElement>(null)
  useFocusWhenShown(done, resultRef)
  useFocusWhenShown(!done, emailRef)
  // With 'Tous' the lists hold every company's pieces: each says whose it is, as Mes courriers and Mes factures do.
  const ofCompany = (item: { raisonSociale: string }) => (orderId === null ? ` · ${item.raisonSociale}` : '')
  const isPicked = (kind: ItemKind, id: number) => picked.some((p) => p.kind === kind && p.id === id)
  // While sending, the controls stay focusable (disabled, the one with the focus would drop it to <body> in Chrome):
  // the address is read-only, the boxes and « Tout sélectionner » say they are unavailable, and the machine ignores a
  // change (it takes export.toggle and export.pick only while editing).
  const toggle = (item: ExportItem) => actor.send({ type: 'export.toggle', item })
  const pickAll = (kind: ItemKind, ids: number[]) =>
    actor.send({ type: 'export.pick', items: [...picked.filter((p) => p.kind !== kind), ...ids.map((id) => ({ kind, id }))] })
  const nameOf = (f: ExportItem) =>
    f.kind === 'invoice'
      ? `Facture ${invoices.items?.find((i) => i.id === f.id)?.number ?? f.id}`
      : `Courrier de ${documents.items?.find((d) => d.id === f.id)?.sender ?? f.id}`

  return (
    <PageCard aria-labelledby="export-title">
      <h2 id="export-title">Export comptable</h2>
      <p>
        Choisissez vos factures et vos courriers : ils sont envoyés en pièces jointes à la boîte de réception de votre outil comptable
        (Dext).
      </p>
      {done ? (
        <div role="status" ref={resultRef} tabIndex={-1}>
          <Alert $kind={result.failed.length ? 'error' : 'success'}>
            {result.sent > 0 && (
              <p>
                {result.sent} pièce{result.sent > 1 ? 's' : ''} envoyée{result.sent > 1 ? 's' : ''} à {email}.
              </p>
            )}
            {result.failed.length > 0 && (
              <>
                <p>
                  {result.failed.length} pièce{result.failed.length > 1 ? 's n’ont' : ' n’a'} pas pu être envoyée
                  {result.failed.length > 1 ? 's' : ''} :
                </p>
                <ul>
                  {result.failed.map((f) => (
                    <li key={`${f.kind}-${f.id}`}>
                      {nameOf(f)} : {f.reason}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </Alert>
          <Button type="button" onClick={() => actor.send({ type: 'export.again' })}>
            {result.failed.length ? 'Revenir à la sélection' : 'Nouvel envoi'}
          </Button>
        </div>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            actor.send({ type: 'export.submit' })
          }}
          aria-busy={busy}
        >
          {error && (
            <Alert $kind="error" role="alert">
              {error}
            </Alert>
          )}
          <Field id="dext-email" label="Adresse de votre boîte comptable (Dext)" hint="Elle est retenue pour vos prochains envois.">
            <input
              id="dext-email"
              ref={emailRef}
              type="email"
              autoComplete="email"
              value={email}
              readOnly={busy}
              onChange={(e) => actor.send({ type: 'export.email', email: e.target.value })}
            />
          </Field>
          <Columns>
            <PickList
              legend="Factures"
              kind="invoice"
              list={invoices}
              label="vos factures"
              empty="Aucune facture pour le moment"
              onRetry={() => startup.send({ type: 'data.retry', resource: 'invoices' })}
              busy={busy}
              isPicked={isPicked}
              toggle={toggle}
              pickAll={pickAll}
              describe={(i) => (
                <>
                  Facture {i.number}{' '}
                  <Muted>
                    du {formatDate(i.date)}, {formatEuros(i.amountInclTaxCents)} TTC{ofCompany(i)}
                  </Muted>
                </>
              )}
            />
            <PickList
              legend="Courriers"
              kind="document"
              list={documents}
              label="vos courriers"
              empty="Aucun courrier pour le moment"
              onRetry={() => startup.send({ type: 'data.retry', resource: 'documents' })}
              busy={busy}
              isPicked={isPicked}
              toggle={toggle}
              pickAll={pickAll}
              describe={(d) => (
                <>
                  {d.sender}{' '}
                  <Muted>
                    {documentKind[d.kind]}, reçu le {formatDate(d.receivedAt)}
                    {ofCompany(d)}
                  </Muted>
                </>
              )}
            />
          </Columns>
          <SubmitBar data-sticky-bar>
            {busy && (
              <div role="status">
                <label htmlFor="export-progress">
                  Envoi en cours : {progress.done} / {progress.total} pièce{progress.total > 1 ? 's' : ''}
                </label>
                <progress id="export-progress" max={progress.total} value={progress.done} />
              </div>
            )}
            <BusyButton type="submit" busy={busy}>
              {busy
                ? 'Envoi…'
                : `Envoyer ${picked.length ? `${picked.length} pièce${picked.length > 1 ? 's' : ''}` : ''} à ma comptabilité`}
            </BusyButton>
          </SubmitBar>
        </form>
      )}
    </PageCard>
  )
}
