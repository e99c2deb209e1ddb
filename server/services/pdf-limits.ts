// The upload check's page limit, in a module of its own: read by the check on its worker (pdf-check.ts) and by the
// API's French error (http/errors.ts). Not in pdf-check-thread.ts: shared by the worker's bundle, that module would
// move to a chunk of the built server, and its worker's URL (relative to the module) would point into chunks/.
/**
 * Pages at most: a letter, a Kbis or an identity document has a few, a thick file a few hundred. 20,000 pages of
 * 100 bytes (a 3 MB file) took the check 3.2 s of its 5, and the render 35 s for the 50 pages it draws.
 */
export const MAX_PDF_PAGES = 1000
