// Build-time configuration (esbuild `define`); the fallbacks serve the tests, which run unbundled.
export const BRAND_NAME: string = typeof __BRAND_NAME__ === 'string' ? __BRAND_NAME__ : 'Domicilium'
export const API_BASE_URL: string = typeof __API_BASE_URL__ === 'string' ? __API_BASE_URL__ : ''
/** The presentation video of the order-selection screen, on its third-party host. */
export const SELECTION_VIDEO_URL = 'https://player.vimeo.com/video/76979871?dnt=1&title=0&byline=0&portrait=0'
/** The year of the copyright line (spec §1). */
export const COPYRIGHT_YEAR = 2022
