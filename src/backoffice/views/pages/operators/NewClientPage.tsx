// /operateur/clients/nouveau (administrators): « Nouveau client »: the company (name, SIREN checked with its Luhn key
// here too, legal form), its owner (invited to choose a password), the plan, options and start day. The server's refusal
// is shown at its field; the form keeps what was typed; created, the new order's page (newClient machine).
import { useActorRef, useSelector } from '@xstate/react'
import { styled } from 'goober'
import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import { LEGAL_FORMS } from '../../../../../server/contract/rules/company.ts'
import type { NewClientValues } from '../../../machines/operators/newClient.machine.ts'
import { Alert, BusyButton, Field, TextField } from '../../../../views/components/ui.tsx'
import { useBackOffice } from '../../context.tsx'
import { Panel } from './admin.styles.ts'
import { CLIENTS_PATH } from './paths.ts'

export const PLAN_LABELS: Record<NewClientValues['plan'], string> = {
  'domiciliation-mensuelle': 'Mensuel (facturé chaque mois)',
  'domiciliation-annuelle': 'Annuel (facturé chaque année)',
}
export const OPTION_LABELS: Record<NewClientValues['options'][number], string> = {
  reexpedition: 'Réexpédition hebdomadaire du courrier',
  scan: 'Numérisation illimitée du courrier',
  standard: 'Permanence téléphonique',
}

/** Today in Paris, as a date field holds it. */
export const parisToday = (now = new Date()) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(now)

const Grid = styled('div')`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr));
  gap: 0 1.25rem;
`
const Choices = styled('fieldset')`
  border: 0;
  margin: 0 0 1rem;
  padding: 0;
  legend { font-weight: 600; margin-bottom: 0.35rem; }
  label { display: flex; align-items: center; gap: 0.5rem; min-height: 36px; }
`

export default function NewClientPage() {
  const form = useActorRef(useBackOffice().flows.newClient)
  const busy = useSelector(form, (s) => s.hasTag('busy'))
  const fieldErrors = useSelector(form, (s) => s.context.fieldErrors)
  const error = useSelector(form, (s) => s.context.error)
  const [values, setValues] = useState<NewClientValues>(() => ({
    raisonSociale: '',
    siren: '',
    legalForm: '',
    firstname: '',
    lastname: '',
    email: '',
    plan: 'domiciliation-mensuelle',
    options: [],
    startDate: parisToday(),
    domiciliationAddress: '',
  }))
  const set =
    <K extends keyof NewClientValues>(key: K) =>
    (value: NewClientValues[K]) =>
      setValues((v) => ({ ...v, [key]: value }))
  const text = (key: Exclude<keyof NewClientValues, 'plan' | 'options' | 'legalForm'>, label: string, extra: object = {}) => (
    <TextField id={`client-${key}`} label={label} value={values[key]} onChange={set(key)} error={fieldErrors[key]} {...extra} />
  )
  function submit(event: FormEvent) {
    event.preventDefault()
    form.send({ type: 'client.submit', values })
  }
  function toggle(option: NewClientValues['options'][number]) {
    setValues((v) => ({
      ...v,
      options: (Object.keys(OPTION_LABELS) as NewClientValues['options']).filter((o) =>
        o === option ? !v.options.includes(o) : v.options.includes(o),
      ),
    }))
  }
  return (
    <form onSubmit={submit} noValidate aria-busy={busy}>
      <p>
        <Link href={CLIENTS_PATH}>← Retour aux clients</Link>
      </p>
      <p>
        La domiciliation commence « En attente de KBIS ». Le titulaire reçoit un e-mail pour choisir son mot de passe (s’il a déjà un
        compte, la société y est ajoutée).
      </p>
      {error && (
        <Alert $kind="error" role="alert">
          {error}
        </Alert>
      )}
      <Panel aria-labelledby="nouvelle-societe">
        <h2 id="nouvelle-societe">La société</h2>
        <Grid>
          {text('raisonSociale', 'Raison sociale', { maxLength: 200, autoComplete: 'organization' })}
          {text('siren', 'SIREN', { inputMode: 'numeric', maxLength: 20, hint: '9 chiffres, espaces permis' })}
          <Field id="client-legalForm" label="Forme juridique" error={fieldErrors.legalForm}>
            <select
              id="client-legalForm"
              value={values.legalForm}
              aria-invalid={!!fieldErrors.legalForm}
              aria-describedby={fieldErrors.legalForm ? 'client-legalForm-error' : undefined}
              onChange={(e) => set('legalForm')(e.target.value as NewClientValues['legalForm'])}
            >
              <option value="">Choisir…</option>
              {LEGAL_FORMS.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </Field>
          {text('domiciliationAddress', 'Adresse de domiciliation (facultatif)', {
            maxLength: 200,
            hint: 'Vide : l’adresse habituelle du centre',
          })}
        </Grid>
      </Panel>
      <Panel aria-labelledby="nouveau-titulaire">
        <h2 id="nouveau-titulaire">Le titulaire</h2>
        <Grid>
          {text('firstname', 'Prénom', { maxLength: 100, autoComplete: 'off' })}
          {text('lastname', 'Nom', { maxLength: 100, autoComplete: 'off' })}
          {text('email', 'Adresse e-mail', { type: 'email', maxLength: 254, autoComplete: 'off' })}
        </Grid>
      </Panel>
      <Panel aria-labelledby="nouvel-abonnement">
        <h2 id="nouvel-abonnement">L’abonnement</h2>
        <Grid>
          <Choices>
            <legend>Formule</legend>
            {(Object.keys(PLAN_LABELS) as NewClientValues['plan'][]).map((plan) => (
              <label key={plan}>
                <input type="radio" name="plan" value={plan} checked={values.plan === plan} onChange={() => set('plan')(plan)} />
                {PLAN_LABELS[plan]}
              </label>
            ))}
          </Choices>
          <Choices>
            <legend>Options</legend>
            {(Object.keys(OPTION_LABELS) as NewClientValues['options']).map((option) => (
              <label key={option}>
                <input type="checkbox" checked={values.options.includes(option)} onChange={() => toggle(option)} />
                {OPTION_LABELS[option]}
              </label>
            ))}
          </Choices>
          {text('startDate', 'Date de début', { type: 'date' })}
        </Grid>
      </Panel>
      <BusyButton type="submit" busy={busy}>
        {busy ? 'Création…' : 'Créer le client'}
      </BusyButton>
    </form>
  )
}
