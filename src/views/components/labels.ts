// The French words for the server's mail values, shared by the mail pages and the dashboard.
export const courierRequestKind = { réexpédition: 'Réexpédition', scan: 'Numérisation' } as const
export const documentKind = { courrier: 'Courrier', recommandé: 'Recommandé', administratif: 'Administratif' } as const
export const letters = (n: number) => `${n} courrier${n > 1 ? 's' : ''}`
