// Build-time constants injected by esbuild.config.mjs (`define`).
declare const __BRAND_NAME__: string
declare const __API_BASE_URL__: string
