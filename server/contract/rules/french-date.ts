// Dates as French writes them: the first day of a month is « 1er » (« le 1er mars 2027 », « lundi 1er juin »), which
// Intl.DateTimeFormat('fr-FR') writes « 1 » (« À traiter avant le 1 mars 2027 »). Shared by the
// SPA's screens and the server's e-mails and documents: a pure rule of the contract.

/** Intl.DateTimeFormat in French, whose format() writes « 1er » for the first of a month. */
export function frenchDateFormat(options: Intl.DateTimeFormatOptions): { format(date: Date | number): string } {
  const format = new Intl.DateTimeFormat('fr-FR', options)
  return {
    format: (date) =>
      format
        .formatToParts(date)
        .map((part) => (part.type === 'day' && part.value === '1' ? '1er' : part.value))
        .join(''),
  }
}

const calendarDay = frenchDateFormat({ day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
/** A calendar day in words, wherever it is read: « 31 janvier 2027 » from 2027-01-31, « 1er mars 2027 ». */
export const frenchDay = (day: string) => calendarDay.format(new Date(`${day}T12:00:00Z`))
