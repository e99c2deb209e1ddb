// The provider's particulars of a legal page: the JSON block the server writes into the page (server/http/spa.ts), read
// once. Every link to a legal page is a plain link (a page load), so the block is there whenever one is shown.
import { LEGAL_PARTICULARS_ELEMENT_ID, type LegalParticulars } from '../../../../server/contract/rules/legal.ts'

export function readParticulars(doc: Document = document): LegalParticulars | null {
  const text = doc.getElementById(LEGAL_PARTICULARS_ELEMENT_ID)?.textContent
  if (!text) return null
  try {
    const value = JSON.parse(text) as LegalParticulars
    return typeof value.name === 'string' && typeof value.siren === 'string' ? value : null
  } catch {
    return null
  }
}

/** « 123 456 782 », as a SIREN is written. */
export const formatSiren = (siren: string) => siren.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3')
