// The portal's addresses that the e-mails link to (a letter's: mail.ts's letterPath; a conversation, a document
// refused, the formalities…), followed once the person is signed in: only a path of this portal is kept, never another
// site (`//host`, `https:`), the API nor the back office; the order a path names (`?domiciliation=` as a letter's link
// carries it, or `?order=`) is the one it is to be seen with.

/** Paths served by something else than the customer portal. */
const NOT_PORTAL = /^\/(api|operateur|health|assets)(?=[-/?#.]|$)/

/** A path of the customer portal on this origin: one leading slash, no backslash, no control character or space. */
export function isPortalPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//')) return false
  if (/[\\\s\u0000-\u001f\u007f]/.test(path)) return false
  return !NOT_PORTAL.test(path)
}

/** The order a portal path names in its query (`domiciliation` or `order`), if it names one. */
export function linkedOrderId(path: string): number | null {
  const query = path.split('#', 1)[0]!.split('?')[1]
  if (!query) return null
  const params = new URLSearchParams(query)
  const value = params.get('domiciliation') ?? params.get('order')
  return value !== null && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null
}
