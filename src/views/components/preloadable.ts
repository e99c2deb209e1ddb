// React.lazy with a preload: a component whose module was fetched ahead (preload()) renders at once,
// without suspending (React.lazy alone suspends on its first render whatever the module's state, and
// the reveal then waits for React's Suspense throttle, 300 ms). Not loaded yet, it suspends as lazy does.
import { type ComponentType, lazy, type LazyExoticComponent } from 'react'

export type Preloadable<T extends ComponentType<any>> = LazyExoticComponent<T> & {
  /** Fetches and evaluates the module now; the component's first render then does not suspend. */
  preload: () => Promise<unknown>
  /** True once the module is there: the next first render will not suspend. */
  isLoaded: () => boolean
}

export function preloadable<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): Preloadable<T> {
  let loaded: { default: T } | undefined
  let pending: Promise<{ default: T }> | undefined
  const preload = () =>
    (pending ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        pending = undefined // offline: the next render tries again
        throw error
      },
    ))
  // React.lazy subscribes with then() and reads the module synchronously when the callback has run
  // before then() returns: a loaded module is handed over that way.
  const Component = lazy<T>(() =>
    loaded
      ? // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, as said above
        ({ then: (resolve: (module: { default: T }) => void) => resolve(loaded!) } as unknown as Promise<{ default: T }>)
      : preload(),
  )
  return Object.assign(Component, { preload, isLoaded: () => loaded !== undefined }) as Preloadable<T>
}
