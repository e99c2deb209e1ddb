// "Ajouter une option": the options the subscription does not hold with their price, then a confirmation that shows the
// price; the option shows on the card once the provider confirmed it.
import { useActorRef, useSelector } from '@xstate/react'
import type { OptionTarget } from '../../../machines/billing/subscriptionOption.machine.ts'
import { useFlows } from '../../app-context.tsx'
import { Modal } from '../../components/Modal.tsx'
import { Alert, Button, ErrorState, formatEuros, Spinner } from '../../components/ui.tsx'
import { perPeriod } from './labels.ts'
import { Choices } from './styles.ts'

export function OptionDialog({ target, company }: { target: OptionTarget; company: string }) {
  const flows = useFlows('billing')
  const actor = useActorRef(flows.subscriptionOption, { input: target })
  const open = useSelector(actor, (s) => s.hasTag('dialog'))
  const state = useSelector(actor, (s) =>
    s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : s.matches('choosing') ? 'choosing' : 'confirming',
  )
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const options = useSelector(actor, (s) => s.context.options)
  const chosen = useSelector(actor, (s) => s.context.chosen)
  const error = useSelector(actor, (s) => s.context.error)
  const close = () => actor.send({ type: 'option.close' })
  return (
    <>
      <Button
        type="button"
        $variant="secondary"
        onClick={() => actor.send({ type: 'option.open' })}
        aria-label={`Ajouter une option à l’abonnement de ${company}`}
      >
        Ajouter une option
      </Button>
      {open && (
        <Modal
          title="Ajouter une option"
          onClose={close}
          locked={busy}
          footer={
            state === 'confirming' ? (
              <>
                <Button type="button" $variant="secondary" onClick={() => actor.send({ type: 'option.back' })} disabled={busy}>
                  Retour
                </Button>
                <Button type="button" onClick={() => actor.send({ type: 'option.confirm' })} disabled={busy} data-autofocus>
                  {busy ? 'Ajout…' : 'Confirmer l’ajout'}
                </Button>
              </>
            ) : (
              <Button type="button" $variant="secondary" onClick={close}>
                Fermer
              </Button>
            )
          }
        >
          {state === 'loading' && <Spinner label="Chargement des options…" />}
          {state === 'failed' && (
            <ErrorState message={error ?? 'Le chargement a échoué.'} onRetry={() => actor.send({ type: 'option.retry' })} />
          )}
          {state === 'choosing' &&
            (options.length === 0 ? (
              <p>Votre abonnement comprend déjà toutes nos options.</p>
            ) : (
              <Choices aria-label="Options disponibles">
                {options.map((o) => (
                  <li key={o.planId}>
                    <span>
                      <strong>{o.nickname}</strong>
                      <br />
                      {formatEuros(o.amountInclTaxCents)} TTC {perPeriod(o.interval)}
                    </span>
                    <Button
                      type="button"
                      onClick={() => actor.send({ type: 'option.pick', planId: o.planId })}
                      aria-label={`Choisir ${o.nickname}`}
                    >
                      Choisir
                    </Button>
                  </li>
                ))}
              </Choices>
            ))}
          {state === 'confirming' && chosen && (
            <>
              <p>
                Ajouter <strong>{chosen.nickname}</strong> à l’abonnement de {company} pour{' '}
                <strong>
                  {formatEuros(chosen.amountInclTaxCents)} TTC {perPeriod(chosen.interval)}
                </strong>{' '}
                ({formatEuros(chosen.amountExclTaxCents)} HT) ?
              </p>
              <p>Le montant s’ajoute à votre abonnement et sera facturé avec la prochaine échéance.</p>
              {error && (
                <Alert $kind="error" role="alert">
                  {error}
                </Alert>
              )}
            </>
          )}
        </Modal>
      )}
    </>
  )
}
