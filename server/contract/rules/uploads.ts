// The size every upload may reach (a Kbis, an identity document, an operator's letter or invoice), and its French
// message: the screens refuse a larger file before sending it, the server whatever reaches it; and the pages a PDF may
// have (the upload check on its worker, services/pdf-check.ts, and the API's French error, http/errors.ts).

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024
/** The limit as the texts say it. */
export const MAX_UPLOAD_LABEL = '10 Mo'
export const FILE_TOO_LARGE = `Le fichier dépasse la taille maximale de ${MAX_UPLOAD_LABEL}.`

/**
 * Pages at most: a letter, a Kbis or an identity document has a few, a thick file a few hundred. 20,000 pages of
 * 100 bytes (a 3 MB file) took the check 3.2 s of its 5, and the render 35 s for the 50 pages it draws.
 */
export const MAX_PDF_PAGES = 1000
