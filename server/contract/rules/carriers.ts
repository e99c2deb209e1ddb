// The carriers a forwarded letter leaves with, and their public tracking pages: the server answers the link with the
// request (the customer's « Suivre l’envoi »); the back office's form offers the same names.

/** The carriers whose tracking page we know, by the name the operator picks; `{n}` stands for the tracking number. */
export const CARRIERS = [
  {
    name: 'La Poste',
    words: ['la poste', 'lettre suivie', 'lettre recommandee'],
    url: 'https://www.laposte.fr/outils/suivre-vos-envois?code={n}',
  },
  { name: 'Colissimo', words: ['colissimo'], url: 'https://www.laposte.fr/outils/suivre-vos-envois?code={n}' },
  { name: 'Chronopost', words: ['chronopost'], url: 'https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT={n}' },
  { name: 'DHL', words: ['dhl'], url: 'https://www.dhl.com/fr-fr/home/suivi.html?tracking-id={n}' },
  { name: 'UPS', words: ['ups'], url: 'https://www.ups.com/track?loc=fr_FR&tracknum={n}' },
  { name: 'FedEx', words: ['fedex'], url: 'https://www.fedex.com/fedextrack/?trknbr={n}' },
  { name: 'GLS', words: ['gls'], url: 'https://gls-group.com/FR/fr/suivi-colis?match={n}' },
  { name: 'DPD', words: ['dpd'], url: 'https://trace.dpd.fr/fr/trace/{n}' },
] as const

const folded = (text: string) =>
  ` ${text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `

/** The tracking page of a number with a carrier (« DHL Express » is DHL's), or null for a carrier we do not know. */
export function trackingUrl(carrier: string, trackingNumber: string): string | null {
  const name = folded(carrier)
  const known = CARRIERS.find((c) => c.words.some((word) => name.includes(` ${word} `)))
  return known ? known.url.replace('{n}', encodeURIComponent(trackingNumber.replace(/\s+/g, ''))) : null
}

/** A tracking number as carriers print them: letters and digits, spaces and dashes between, 4 to 40 characters. */
export const TRACKING_NUMBER_PATTERN = '^[A-Za-z0-9][A-Za-z0-9 -]{2,38}[A-Za-z0-9]$'
