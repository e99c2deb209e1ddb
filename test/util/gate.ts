// A promise the test opens when it likes (Promise.withResolvers, which Node 20 lacks): a route held in flight, a hook
// that waits, a step reached.
export function gate<T = void>(): { opened: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void
  const opened = new Promise<T>((resolve) => {
    open = resolve
  })
  return { opened, open }
}
