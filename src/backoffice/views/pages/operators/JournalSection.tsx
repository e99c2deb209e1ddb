// Administration › Journal: the filters (operator, order, kind of action, days), the rows a page at a time, and
// « Exporter en CSV » with the same filters (journal machine).
import { useActorRef, useSelector } from '@xstate/react'
import { type FormEvent, useEffect, useState } from 'react'
import type { OperatorSummary } from '../../../../../server/contract/operators.ts'
import type { JournalFilters } from '../../../machines/operators/journal.machine.ts'
import { Alert, BusyButton, Button, ErrorState, Field, Spinner, TextField } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { formatDateTime, Inline, Muted, Panel, TableBox } from './admin.styles.ts'
import { Pager } from './Pager.tsx'

/** The kinds of action the journal records, as the filter offers them. */
export const ACTION_LABELS: Record<string, string> = {
  'operator.invited': 'Opérateur invité',
  'operator.enrolled': 'Inscription d’un opérateur',
  'operator.roles': 'Rôles modifiés',
  'operator.deactivated': 'Opérateur désactivé',
  'apiKey.created': 'Clé d’API créée',
  'apiKey.revoked': 'Clé d’API révoquée',
  'client.created': 'Nouveau client',
  'letter.added': 'Courrier ajouté (API)',
  'letter.forwarded': 'Courrier réexpédié (API)',
  'backup.database': 'Sauvegarde de la base (API)',
  'package.added': 'Colis ajouté (API)',
  'invoice.added': 'Facture ajoutée (API)',
  'kbis.validated': 'Kbis validé',
  'formality.moved': 'Formalité avancée',
  'scan.uploaded': 'Scan déposé',
  'scan.reviewed': 'Scan vérifié',
  'scan.confirmed': 'Scan confirmé',
  'scan.deleted': 'Scan supprimé',
  'scan.published': 'Scan publié',
  'package.received': 'Colis reçu',
  'package.handedOver': 'Colis remis',
  'forwarding.shipped': 'Réexpédition expédiée',
  'forwarding.impossible': 'Réexpédition impossible',
  'conversation.replied': 'Réponse à un client',
  'conversation.closed': 'Conversation close',
  'conversation.reopened': 'Conversation rouverte',
  'termination.accepted': 'Résiliation acceptée',
  'termination.contacted': 'Client contacté (résiliation)',
  'account.closed': 'Compte fermé par son titulaire',
  'mail.retentionNotice': 'Avis de suppression du courrier',
  'mail.retentionPurge': 'Courrier supprimé (conservation)',
}

const ORDER_INVALID = 'Saisissez un numéro de commande (des chiffres).'

export function JournalSection() {
  const { flows } = useBackOffice()
  const journal = useActorRef(flows.journal)
  const result = useSelector(journal, (s) => s.context.result)
  const loading = useSelector(journal, (s) => s.hasTag('loading'))
  const failed = useSelector(journal, (s) => s.matches('failed'))
  const exporting = useSelector(journal, (s) => s.hasTag('exporting'))
  const error = useSelector(journal, (s) => s.context.error)
  const exportError = useSelector(journal, (s) => s.context.exportError)
  const page = useSelector(journal, (s) => s.context.page)
  // The operators to filter by (the filter works without them: the list failing leaves « Tous »).
  const [operators, setOperators] = useState<OperatorSummary[]>([])
  const directory = useActorRef(flows.operatorDirectory)
  useEffect(() => {
    const { unsubscribe } = directory.subscribe((s) => setOperators(s.context.operators))
    return unsubscribe
  }, [directory])

  const [operatorId, setOperatorId] = useState('')
  const [orderId, setOrderId] = useState('')
  const [action, setAction] = useState('')
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const [orderError, setOrderError] = useState<string>()

  function filter(event: FormEvent) {
    event.preventDefault()
    const order = orderId.trim()
    const invalid = order !== '' && !/^[1-9][0-9]{0,9}$/.test(order) ? ORDER_INVALID : undefined
    setOrderError(invalid)
    if (invalid) return
    const filters: JournalFilters = {
      ...(operatorId ? { operatorId: Number(operatorId) } : {}),
      ...(order ? { orderId: Number(order) } : {}),
      ...(action ? { action } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
    }
    journal.send({ type: 'journal.filter', filters })
  }

  const pages = result ? Math.max(1, Math.ceil(result.total / result.pageSize)) : 1
  return (
    <Panel aria-labelledby="journal">
      <h2 id="journal">Journal</h2>
      <form onSubmit={filter} noValidate>
        <Inline>
          <Field id="journal-operator" label="Opérateur">
            <select id="journal-operator" value={operatorId} onChange={(e) => setOperatorId(e.target.value)}>
              <option value="">Tous</option>
              {operators.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </Field>
          <TextField id="journal-order" label="Commande n°" inputMode="numeric" value={orderId} onChange={setOrderId} error={orderError} />
          <Field id="journal-action" label="Action">
            <select id="journal-action" value={action} onChange={(e) => setAction(e.target.value)}>
              <option value="">Toutes</option>
              {Object.entries(ACTION_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          <TextField id="journal-from" label="Du" type="date" value={from} onChange={setFrom} />
          <TextField id="journal-to" label="Au" type="date" value={to} onChange={setTo} />
          <Button type="submit">Filtrer</Button>
          <BusyButton
            type="button"
            $variant="secondary"
            busy={exporting}
            disabled={!result}
            onClick={() => journal.send({ type: 'journal.export' })}
          >
            {exporting ? 'Export…' : 'Exporter en CSV'}
          </BusyButton>
        </Inline>
      </form>
      {exportError && (
        <Alert $kind="error" role="alert">
          {exportError}
        </Alert>
      )}
      {failed && <ErrorState message={error!} onRetry={() => journal.send({ type: 'journal.retry' })} />}
      {loading && !result && <Spinner label="Chargement du journal…" />}
      {result && !failed && (
        <div aria-busy={loading}>
          <p role="status">
            {result.total === 0
              ? 'Aucune entrée ne correspond à ces filtres.'
              : `${result.total} entrée${result.total > 1 ? 's' : ''}, page ${result.page} sur ${pages}.`}
          </p>
          {result.entries.length > 0 && (
            <TableBox>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Par</th>
                    <th scope="col">Action</th>
                    <th scope="col">Commande</th>
                    <th scope="col">Résumé</th>
                  </tr>
                </thead>
                <tbody>
                  {result.entries.map((entry) => (
                    <tr key={entry.id}>
                      <td>{formatDateTime(entry.at)}</td>
                      <td>
                        {entry.operator
                          ? entry.operator.name
                          : entry.apiKey
                            ? `Clé « ${entry.apiKey.name} »`
                            : (entry.automatic ?? 'Jeton de démarrage')}
                      </td>
                      <td>{ACTION_LABELS[entry.action] ?? <Muted>{entry.action}</Muted>}</td>
                      <td>{entry.orderId ?? '—'}</td>
                      <td>{entry.summary}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          )}
          <Pager
            label="Pages du journal"
            page={page}
            pages={pages}
            loading={loading}
            go={(to) => journal.send({ type: 'journal.page', page: to })}
          />
        </div>
      )}
    </Panel>
  )
}
