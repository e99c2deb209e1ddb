// « Mes données » on /informations-personnelles (RGPD art. 15 and 20): « Préparer mes données » starts the ZIP of
// everything the person sees; its progress while the server prepares it; then « Télécharger mes données » until it
// expires (the e-mailed link leads here, #mes-donnees); « Réessayer » when it failed.
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { useFlows } from '../../app-context.tsx'
import { Alert, BusyButton, ErrorState, formatDate, Spinner } from '../../components/ui.tsx'
import { Muted, Toolbar } from '../../components/page.tsx'
import { color } from '../../theme.ts'
import { Section } from './Section.tsx'

const Progress = styled('div')`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  progress { width: 100%; height: 0.8rem; accent-color: ${color.primary}; }
`

/** 12,3 Mo: the ZIP's size as a person reads it. */
const megabytes = (bytes: number) =>
  `${new Intl.NumberFormat('fr-FR', { maximumFractionDigits: bytes < 10_000_000 ? 1 : 0 }).format(Math.max(bytes / 1_000_000, 0.1))} Mo`

export function MyDataSection() {
  const flows = useFlows('people')
  const actor = useActorRef(flows.dataExport)
  const current = useSelector(actor, (s) => s.context.current)
  const loading = useSelector(actor, (s) => s.hasTag('loading'))
  const loadError = useSelector(actor, (s) => (s.matches('loadFailed') ? s.context.loadError : null))
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const preparing = useSelector(actor, (s) => s.hasTag('preparing'))
  const ready = useSelector(actor, (s) => s.matches('ready') || s.matches('downloading'))
  const failed = useSelector(actor, (s) => s.matches('failed'))
  const canPrepare = useSelector(actor, (s) => s.can({ type: 'dataExport.prepare' }))
  return (
    // The e-mailed link's anchor (#mes-donnees) is the section's heading.
    <Section id="mes-donnees" title="Mes données">
      <p>
        Une archive ZIP de tout ce que vous voyez ici : le PDF de chacun de vos courriers, vos factures, avoirs, attestations et contrats,
        et vos informations (compte, domiciliations, courriers et leur texte, colis, demandes, paiements, échanges, préférences) en JSON et
        en CSV. Nous vous l’envoyons par e-mail dès qu’elle est prête ; elle reste disponible 7 jours.
      </p>
      {loading && <Spinner label="Chargement : vos données…" />}
      {loadError && <ErrorState message={loadError} onRetry={() => actor.send({ type: 'dataExport.reload' })} />}
      {preparing && current && (
        <Progress role="status">
          <label htmlFor="my-data-progress">Préparation de vos données : {current.progress} %</label>
          <progress id="my-data-progress" max={100} value={current.progress} />
          <Muted>Vous pouvez quitter cette page : un e-mail vous préviendra.</Muted>
        </Progress>
      )}
      {failed && (
        <Alert $kind="error" role="alert">
          La préparation de vos données a échoué.
        </Alert>
      )}
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      {ready && current?.expiresAt && (
        <p>
          Vos données sont prêtes{current.bytes !== null ? ` (${megabytes(current.bytes)})` : ''}. Téléchargeables jusqu’au{' '}
          {formatDate(current.expiresAt)}.
        </p>
      )}
      {!loading && !loadError && !preparing && (
        <Toolbar>
          {ready && (
            <BusyButton type="button" busy={busy} onClick={() => actor.send({ type: 'dataExport.download' })}>
              {busy ? 'Téléchargement…' : 'Télécharger mes données'}
            </BusyButton>
          )}
          {failed && (
            <BusyButton type="button" busy={busy} onClick={() => actor.send({ type: 'dataExport.retry' })}>
              Réessayer
            </BusyButton>
          )}
          {(canPrepare || (busy && !ready)) && (
            <BusyButton
              type="button"
              $variant={ready ? 'secondary' : 'primary'}
              busy={busy && !ready}
              onClick={() => actor.send({ type: 'dataExport.prepare' })}
            >
              {busy && !ready ? 'Préparation…' : ready ? 'Préparer de nouveau' : 'Préparer mes données'}
            </BusyButton>
          )}
        </Toolbar>
      )}
    </Section>
  )
}
