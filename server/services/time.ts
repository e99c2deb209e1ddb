export const addHours = (date: Date, hours: number) => new Date(date.getTime() + hours * 3_600_000)
export const addDays = (date: Date, days: number) => addHours(date, days * 24)
export const addMinutes = (date: Date, minutes: number) => new Date(date.getTime() + minutes * 60_000)
