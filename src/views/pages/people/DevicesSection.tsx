// "Appareils connectés" on /informations-personnelles: the sessions (browser, last use), this one
// marked, and "Déconnecter les autres appareils".
import { useActorRef, useSelector } from '@xstate/react'
import { useRef } from 'react'
import { useFlows } from '../../app-context.tsx'
import { Alert, BusyButton, ErrorState, formatDate, Spinner } from '../../components/ui.tsx'
import { Badge, Muted, Row, Rows, Toolbar } from '../../components/page.tsx'
import { useFocusWhenShown } from '../../components/useFocusWhenShown.ts'
import { Section } from './Section.tsx'

export function DevicesSection() {
  const flows = useFlows('people')
  const actor = useActorRef(flows.devices)
  const sessions = useSelector(actor, (s) => s.context.sessions)
  const loading = useSelector(actor, (s) => s.hasTag('loading'))
  const loadError = useSelector(actor, (s) => (s.matches('failed') ? s.context.loadError : null))
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const others = sessions.filter((s) => !s.current).length
  // Signed out, no other device is left and their button went with the focus: the line that says so takes it.
  const count = useRef<HTMLSpanElement>(null)
  useFocusWhenShown(!busy, count)
  return (
    <Section id="devices-title" title="Appareils connectés">
      {loading && <Spinner label="Chargement : vos appareils connectés…" />}
      {loadError && <ErrorState message={loadError} onRetry={() => actor.send({ type: 'devices.retry' })} />}
      {!loading && !loadError && (
        <>
          <Rows aria-label="Appareils connectés">
            {sessions.map((s) => (
              <Row key={s.id}>
                <div>
                  <strong>{s.device}</strong>
                  <div>
                    <Muted>
                      Connecté le {formatDate(s.createdAt)}
                      {s.lastUsedAt ? ` · dernière utilisation le ${formatDate(s.lastUsedAt)}` : ''}
                    </Muted>
                  </div>
                </div>
                {s.current && <Badge $tone="success">Cet appareil</Badge>}
              </Row>
            ))}
          </Rows>
          {error && (
            <Alert $kind="error" role="alert">
              {error}
            </Alert>
          )}
          <Toolbar>
            <Muted ref={count} tabIndex={-1}>
              {others === 0
                ? 'Aucun autre appareil n’est connecté.'
                : others === 1
                  ? 'Un autre appareil est connecté.'
                  : `${others} autres appareils sont connectés.`}
            </Muted>
            {others > 0 && (
              <BusyButton type="button" $variant="secondary" busy={busy} onClick={() => actor.send({ type: 'devices.signOutOthers' })}>
                {busy ? 'Déconnexion…' : 'Déconnecter les autres appareils'}
              </BusyButton>
            )}
          </Toolbar>
        </>
      )}
    </Section>
  )
}
