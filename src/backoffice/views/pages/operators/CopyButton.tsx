// « Copier »: puts a text shown once (an API key, an enrolment link) on the clipboard, and says whether it worked.
import { useState } from 'react'
import { Button } from '../../../../views/components/ui.tsx'

export const COPIED = 'Copié dans le presse-papiers.'
export const NOT_COPIED = 'La copie a échoué : sélectionnez le texte et copiez-le vous-même.'

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState<string | null>(null)
  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      setSaid(COPIED)
    } catch {
      setSaid(NOT_COPIED)
    }
  }
  return (
    <p>
      <Button type="button" $variant="secondary" onClick={() => void copy()}>
        {label}
      </Button>{' '}
      <span role="status">{said}</span>
    </p>
  )
}
