// The size every upload may reach (a Kbis, an identity document, an operator's letter or invoice), and its French
// message: the screens refuse a larger file before sending it, the server whatever reaches it.

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024
/** The limit as the texts say it. */
export const MAX_UPLOAD_LABEL = '10 Mo'
export const FILE_TOO_LARGE = `Le fichier dépasse la taille maximale de ${MAX_UPLOAD_LABEL}.`
