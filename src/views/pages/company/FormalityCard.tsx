// One formality of the catalogue: what it needs, its price and time, and "Commander" when the order
// checks allow it now, otherwise why not.
import { styled } from 'goober'
import { Muted } from '../../components/page.tsx'
import { Button, Card, formatEuros } from '../../components/ui.tsx'
import { color } from '../../theme.ts'
import type { Formality } from './catalogue.ts'

const Box = styled(Card)`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  h3 { margin: 0; font-size: 1.15rem; }
  h4 { margin: 0.5rem 0 0; font-size: 0.95rem; }
  ul { margin: 0; padding-left: 1.2rem; }
  dl { display: flex; flex-wrap: wrap; gap: 0.25rem 1.5rem; margin: 0.5rem 0; }
  dt { color: ${color.muted}; font-size: 0.9rem; }
  dd { margin: 0; font-weight: 600; }
  .why { margin: auto 0 0; color: ${color.muted}; border-left: 3px solid ${color.accent}; padding-left: 0.75rem; }
  button { margin-top: auto; align-self: flex-start; }
`

/** `refusal`: undefined while nothing can be decided (no company, checks pending), null when allowed. */
export function FormalityCard({
  formality,
  refusal,
  canOrder,
  onOrder,
}: {
  formality: Formality
  refusal: string | null | undefined
  canOrder: boolean
  onOrder: () => void
}) {
  const id = `formalite-${formality.kind}`
  return (
    <Box aria-labelledby={id}>
      <h3 id={id}>{formality.label}</h3>
      <Muted>{formality.summary}</Muted>
      <h4>Ce qu’il faut fournir</h4>
      <ul>
        {formality.needs.map((need) => (
          <li key={need}>{need}</li>
        ))}
      </ul>
      <dl>
        <div>
          <dt>Prix</dt>
          <dd>{formatEuros(formality.priceExclTaxCents)} HT</dd>
        </div>
        <div>
          <dt>Délai</dt>
          <dd>{formality.delay}</dd>
        </div>
      </dl>
      {refusal === null && canOrder && (
        <Button type="button" onClick={onOrder} aria-label={`Commander : ${formality.label}`}>
          Commander
        </Button>
      )}
      {refusal && <p className="why">{refusal}</p>}
    </Box>
  )
}
