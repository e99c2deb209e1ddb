import { frenchDateFormat } from '../contract/rules/french-date.ts'
export const addHours = (date: Date, hours: number) => new Date(date.getTime() + hours * 3_600_000)
export const addDays = (date: Date, days: number) => addHours(date, days * 24)
export const addMinutes = (date: Date, minutes: number) => new Date(date.getTime() + minutes * 60_000)
/** The day (YYYY-MM-DD) of an instant in France, whatever the server's time zone: the contract's one rule. */
export { parisDay } from '../contract/rules/deadlines.ts'

/** "3 mars 2026" ("1er mars 2026"), as French documents write a date (certificates, contracts, letters), in France's time zone. */
export const longDate = frenchDateFormat({ day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Paris' })

/** "14 h 05": a time of day in France, as a French message writes it. */
const parisTimeFormat = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Paris' })
export const parisTime = (date: Date) => parisTimeFormat.format(date).replace(':', ' h ')
