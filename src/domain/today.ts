// Today in the browser's time zone, and the zero padding of calendar dates: apart from dates.ts's calendar arithmetic
// and holidays, which the dashboard's first screen (its next deadlines) does not need.
/** `n` in `width` digits, zeros first. */
export const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** Today in the local time zone of `now` (the browser's), as a calendar date ('YYYY-MM-DD', an IsoDate of dates.ts). */
export function localIsoDate(now: Date = new Date()): string {
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}
