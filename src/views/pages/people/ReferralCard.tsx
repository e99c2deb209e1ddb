// "Recommander {brand}" on /mes-collaborateurs: one address, a referral e-mail.
import { useActorRef, useSelector } from '@xstate/react'
import { BRAND_NAME } from '../../../wiring/config.ts'
import { useFlows } from '../../app-context.tsx'
import { BusyButton, TextField } from '../../components/ui.tsx'
import { Muted } from '../../components/page.tsx'
import { Section } from './Section.tsx'

export function ReferralCard() {
  const flows = useFlows('people')
  const actor = useActorRef(flows.referral)
  const email = useSelector(actor, (s) => s.context.email)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  return (
    <Section id="referral-title" title={`Recommander ${BRAND_NAME}`}>
      <Muted>Une connaissance cherche une domiciliation ? Nous lui écrivons de votre part.</Muted>
      <form
        noValidate
        aria-busy={busy}
        aria-labelledby="referral-title"
        onSubmit={(e) => {
          e.preventDefault()
          actor.send({ type: 'referral.submit' })
        }}
      >
        <TextField
          id="referral-email"
          label="Son adresse e-mail"
          type="email"
          autoComplete="off"
          value={email}
          error={error}
          onChange={(value) => actor.send({ type: 'referral.change', email: value })}
        />
        <BusyButton type="submit" $variant="secondary" busy={busy}>
          {busy ? 'Envoi…' : 'Envoyer la recommandation'}
        </BusyButton>
      </form>
    </Section>
  )
}
