// /suivi-comptable/simulateur-tva: HT → TTC and TTC → HT at 20 %, 10 %, 5,5 % and 2,1 %, from a French
// amount ("1 234,56" or "1234.56"), to the cent, rounded half up (src/domain/vat.ts); no company needed.
import { styled } from 'goober'
import { useState } from 'react'
import { fromHT, fromTTC, parseFrenchAmount, VAT_RATE_LABELS, VAT_RATES, VAT_RATES_SOURCE, type VatRate } from '../../../domain/vat.ts'
import { Muted, PageCard } from '../../components/page.tsx'
import { Card, Field, formatEuros } from '../../components/ui.tsx'
import { color, mq } from '../../theme.ts'
import type { PageProps } from '../page.ts'
import { SourceLink } from './DeadlineList.tsx'

const rateNames: Record<VatRate, string> = { 2000: 'taux normal', 1000: 'taux intermédiaire', 550: 'taux réduit', 210: 'taux particulier' }

const Choices = styled('fieldset')`
  border: 0;
  margin: 0 0 1rem;
  padding: 0;
  legend { font-weight: 600; margin-bottom: 0.35rem; }
  label { display: inline-flex; align-items: center; gap: 0.4rem; min-height: 44px; margin-right: 1.25rem; }
  input { width: 1.2rem; height: 1.2rem; }
`

const Result = styled(Card)`
  dl { display: grid; grid-template-columns: 1fr auto; gap: 0.5rem 1rem; margin: 0; font-size: 1.1rem; }
  dt { color: ${color.muted}; }
  dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
  [data-computed='true'] { font-weight: 700; color: ${color.primary}; }
`

const Layout = styled('div')`
  display: grid;
  gap: 1rem;
  ${mq.desktop} { grid-template-columns: 1fr 1fr; align-items: start; }
`

export default function VatSimulatorPage(_: PageProps) {
  const [amount, setAmount] = useState('')
  const [from, setFrom] = useState<'ht' | 'ttc'>('ht')
  const [rate, setRate] = useState<VatRate>(2000)
  const parsed = amount.trim() === '' ? null : parseFrenchAmount(amount)
  const error = parsed && !parsed.ok ? parsed.error : null
  const result = parsed?.ok ? (from === 'ht' ? fromHT(parsed.cents, rate) : fromTTC(parsed.cents, rate)) : null
  return (
    <PageCard aria-labelledby="vat-title">
      <h2 id="vat-title">Simulateur de TVA</h2>
      <Layout>
        <form noValidate onSubmit={(e) => e.preventDefault()} aria-label="Montant et taux">
          <Choices>
            <legend>Le montant saisi est</legend>
            <label>
              <input type="radio" name="vat-from" checked={from === 'ht'} onChange={() => setFrom('ht')} /> hors taxes (HT)
            </label>
            <label>
              <input type="radio" name="vat-from" checked={from === 'ttc'} onChange={() => setFrom('ttc')} /> toutes taxes comprises (TTC)
            </label>
          </Choices>
          <Field
            id="vat-amount"
            label={from === 'ht' ? 'Montant HT (€)' : 'Montant TTC (€)'}
            hint="Par exemple 1 234,56 ou 1234.56"
            error={error}
          >
            <input
              id="vat-amount"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              aria-invalid={!!error}
              aria-describedby={error ? 'vat-amount-error vat-amount-hint' : 'vat-amount-hint'}
            />
          </Field>
          <Choices>
            <legend>Taux de TVA</legend>
            {VAT_RATES.map((r) => (
              <label key={r}>
                <input type="radio" name="vat-rate" checked={rate === r} onChange={() => setRate(r)} /> {VAT_RATE_LABELS[r]}
              </label>
            ))}
          </Choices>
        </form>
        <Result aria-labelledby="vat-result-title">
          <h3 id="vat-result-title">Résultat</h3>
          <div aria-live="polite">
            {result ? (
              <dl>
                <dt>Montant HT</dt>
                <dd data-computed={from === 'ttc'}>{formatEuros(result.ht)}</dd>
                <dt>
                  TVA à {VAT_RATE_LABELS[rate]} <Muted>({rateNames[rate]})</Muted>
                </dt>
                <dd data-computed="true">{formatEuros(result.tva)}</dd>
                <dt>Montant TTC</dt>
                <dd data-computed={from === 'ht'}>{formatEuros(result.ttc)}</dd>
              </dl>
            ) : (
              <Muted>
                {error ? 'Corrigez le montant pour voir le résultat.' : 'Saisissez un montant pour voir la TVA et l’autre montant.'}
              </Muted>
            )}
          </div>
          <p>
            <Muted>Au centime près, le demi-centime arrondi au centime supérieur.</Muted> <SourceLink href={VAT_RATES_SOURCE} />
          </p>
        </Result>
      </Layout>
    </PageCard>
  )
}
