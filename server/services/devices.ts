// A session's browser and system in words, from its User-Agent ("Chrome sur Android"), for
// "Appareils connectés". Only what a person recognises; an unknown agent stays "Navigateur inconnu".
const browsers: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
]
const systems: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
]

export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Navigateur inconnu'
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1]
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1]
  if (!browser && !system) return 'Navigateur inconnu'
  if (!system) return browser!
  return `${browser ?? 'Navigateur'} sur ${system}`
}

/** The User-Agent header of a request, if any. */
export const userAgentOf = (headers: Record<string, string | string[] | undefined>): string | null => {
  const agent = headers['user-agent']
  return (Array.isArray(agent) ? agent[0] : agent) ?? null
}
