// A flow's machine is built (`provide`, which rebuilds the machine's whole state tree) the first time
// a screen asks for it, not when the flows load: the dashboard uses a few of the ~35 flows, and
// building them all at once was a long task on a phone, on the way to the first paint.
const LATER = Symbol('later')

export interface Later<T> {
  readonly [LATER]: () => T
}

/** Marks an entry of an area's flows as built on first use. */
export const later = <T>(build: () => T): Later<T> => ({ [LATER]: build })

export type Built<T> = { readonly [K in keyof T]: T[K] extends Later<infer M> ? M : T[K] }

const isLater = (value: unknown): value is Later<unknown> => typeof value === 'object' && value !== null && LATER in value

/** The flows as the screens read them: each marked entry a getter that builds it once. */
export function built<T extends object>(entries: T): Built<T> {
  const flows: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(entries)) {
    if (!isLater(value)) {
      flows[key] = value
      continue
    }
    let machine: unknown // (a machine: never null)
    Object.defineProperty(flows, key, { enumerable: true, get: () => (machine ??= value[LATER]()) })
  }
  return flows as Built<T>
}
