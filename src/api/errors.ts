import { FILE_TOO_LARGE } from '../../server/contract/rules/uploads.ts'

/** Every failed call becomes an ApiError whose message is French and can be shown as is. */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    message: string,
    /** HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    readonly code?: string,
  ) {
    super(message)
  }
}

const messagesByStatus: Record<number, string> = {
  0: 'Impossible de joindre le serveur. Vérifiez votre connexion internet puis réessayez.',
  400: 'La demande est invalide. Vérifiez les informations saisies.',
  401: 'Votre session a expiré. Veuillez vous reconnecter.',
  403: "Vous n'avez pas accès à cet élément.",
  404: 'Élément introuvable.',
  409: 'Cette action est en conflit avec une autre modification. Rechargez la page.',
  413: FILE_TOO_LARGE,
  429: 'Trop de tentatives. Patientez quelques minutes avant de réessayer.',
}

export function fallbackMessage(status: number): string {
  return (
    messagesByStatus[status] ??
    (status >= 500 ? 'Le service est momentanément indisponible. Réessayez dans quelques instants.' : 'Une erreur est survenue. Réessayez.')
  )
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (error.cause instanceof Error && error.cause.name === 'AbortError'))
}
