// The import rules of the house (../shared/STYLE.md, "One home per area"), checked by `npm test`
// through scripts/depcruise.mjs.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A child never imports its parent: no import cycle.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'machines-are-pure',
      comment: "A statechart imports no views, no API client and no wiring (the portal's or the back office's).",
      severity: 'error',
      from: { path: '^src/(backoffice/)?machines/' },
      to: { path: '^src/(backoffice/)?(views|api|wiring)/' },
    },
    {
      name: 'portal-never-imports-the-back-office',
      comment: 'The customer portal never imports the back office (src/backoffice/): a customer never downloads a byte of it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/backoffice/' },
      to: { path: '^src/backoffice/' },
    },
    {
      name: 'back-office-takes-only-shared-pieces-of-the-portal',
      comment:
        "The back office is a product of its own: of the portal it takes the shared view pieces, the design tokens, goober's " +
        'setup, the toasts and the pure helpers of the statecharts (the password rule), never its client, wiring, pages or flows.',
      severity: 'error',
      from: { path: '^src/backoffice/' },
      to: {
        path: '^src/',
        pathNot:
          '^src/(backoffice/|views/(components/(ui|Modal|PasswordFields|icon-button|useMediaQuery|useFocusWhenShown)\\.tsx?|theme\\.ts|goober\\.ts|Toasts\\.tsx|icons\\.tsx)$|machines/(shared|deferred|passwordRule|commonPasswords)\\.ts$|api/errors\\.ts$)',
      },
    },
    {
      name: 'domain-is-pure',
      comment: 'src/domain computes from its arguments: it imports only src/domain (no app module, no package, no Node built-in).',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'views-reach-the-api-through-wiring',
      comment: 'Views never call the API client; the wiring provides the effects.',
      severity: 'error',
      from: { path: '^src/(backoffice/)?views/' },
      to: { path: '^src/(backoffice/)?api/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'contract-rules-are-pure',
      comment: 'The rules both sides run (server/contract/rules) use nothing but the contract, so the SPA can take them as values.',
      severity: 'error',
      from: { path: '^server/contract/rules/' },
      to: { pathNot: '^server/contract/' },
    },
    {
      name: 'api-looks-only-down',
      comment: 'The HTTP client (src/api) is below the composition root: the wiring uses it, never the reverse.',
      severity: 'error',
      from: { path: '^src/(backoffice/)?api/' },
      to: { path: '^src/(backoffice/)?(wiring|views|machines)/' },
    },
    {
      name: 'db-looks-only-down',
      comment:
        'Repositories return rows or throw domain errors (server/db/errors.ts), which the HTTP layer answers; they use the ' +
        'contract and server/lib, never the services, the HTTP layer, the routes or the demo data above them.',
      severity: 'error',
      from: { path: '^server/db/' },
      to: { path: '^server/(http|routes|services|demo)/' },
    },
    {
      name: 'http-uses-no-services',
      comment:
        'The HTTP layer (registration, errors, validation) runs under the routes: it answers the domain errors of server/db and ' +
        'server/lib, and takes no service but as a type.',
      severity: 'error',
      from: { path: '^server/http/' },
      to: { path: '^server/(services|routes|demo)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'lib-is-the-floor',
      comment: 'server/lib (tokens, hashes, dates, money limits) is under every other layer of the server: it uses only the contract.',
      severity: 'error',
      from: { path: '^server/lib/' },
      to: { path: '^server/', pathNot: '^server/(lib|contract)/' },
    },
    { name: 'server-never-imports-src', severity: 'error', from: { path: '^server/' }, to: { path: '^src/' } },
    {
      name: 'src-takes-only-contract-types-from-server',
      comment: 'The SPA shares the wire format with the server as types, nothing else.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/', pathNot: '^server/contract/' },
    },
    {
      name: 'src-takes-contract-as-types-only',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/contract/', pathNot: '^server/contract/rules/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
}
