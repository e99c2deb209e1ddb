// A forwarding address's postcode: five digits in France, anything written elsewhere. The form says it before sending
// (forwardingAddress.machine.ts), the server whatever reaches it (routes/contracts).

/** « France » or « FR », as people type it. */
export const isFrance = (country: string | null | undefined) => !!country && /^\s*(france|fr)\s*$/i.test(country)

export const POSTCODE_NOT_FRENCH = 'Le code postal doit comporter 5 chiffres pour une adresse en France (par exemple 75019).'

/** Whether the postcode cannot be that country's: a French one is five digits. */
export const isBadPostcode = (postcode: string, country: string | null | undefined) => isFrance(country) && !/^\d{5}$/.test(postcode.trim())
