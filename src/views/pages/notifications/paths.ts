// The notifications area's paths, apart from its routes.ts (which imports its pages lazily).
export const MY_CONVERSATIONS_PATH = '/mes-echanges'
