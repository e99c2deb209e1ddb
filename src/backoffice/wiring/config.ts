// Build-time configuration (esbuild `define`, as the portal's); the fallback serves the tests, which run unbundled.
export const API_BASE_URL: string = typeof __API_BASE_URL__ === 'string' ? __API_BASE_URL__ : ''
/** The provider's name (the portal's BRAND_NAME). */
export const BRAND_NAME: string = typeof __BRAND_NAME__ === 'string' ? __BRAND_NAME__ : 'Domicilium'
