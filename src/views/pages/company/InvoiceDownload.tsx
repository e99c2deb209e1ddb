// A booking's invoice: fetched with the token (never put in a URL), saved as "facture-<number>.pdf".
import { useState } from 'react'
import { useFlows } from '../../app-context.tsx'
import { BusyButton, FieldError } from '../../components/ui.tsx'

export function InvoiceDownload({ invoiceId, number }: { invoiceId: number; number: string }) {
  const flows = useFlows('company')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const download = async () => {
    setBusy(true)
    setError(null)
    try {
      const url = URL.createObjectURL(await flows.invoiceFile(invoiceId))
      const link = Object.assign(document.createElement('a'), { href: url, download: `facture-${number}.pdf` })
      link.click()
      setTimeout(() => URL.revokeObjectURL(url), 60_000)
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : 'La facture n’a pas pu être téléchargée. Réessayez.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <div>
      <BusyButton type="button" $variant="secondary" busy={busy} onClick={download} aria-label={`Télécharger la facture ${number}`}>
        {busy ? 'Téléchargement…' : `Facture ${number}`}
      </BusyButton>
      {error && <FieldError role="alert">{error}</FieldError>}
    </div>
  )
}
