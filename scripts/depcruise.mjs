// Runs dependency-cruiser (the import rules of .dependency-cruiser.cjs) on src/ and server/.
// dependency-cruiser parses TypeScript through the compiler's JS API, which TypeScript 7 (the
// project's tsc) no longer ships: here it is handed TypeScript 5 (the package typescript-5).
import Module, { register } from 'node:module'

const toTs5 = (specifier) =>
  specifier === 'typescript' || specifier.startsWith('typescript/') ? specifier.replace('typescript', 'typescript-5') : specifier
const resolveFilename = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, toTs5(request), ...rest)
}
register(
  `data:text/javascript,${encodeURIComponent(`export function resolve(s, c, next) { return next(s === 'typescript' || s.startsWith('typescript/') ? s.replace('typescript', 'typescript-5') : s, c) }`)}`,
)

const { cruise } = await import('dependency-cruiser')
const config = (await import('../.dependency-cruiser.cjs')).default
const result = await cruise(process.argv.slice(2).length ? process.argv.slice(2) : ['src', 'server'], {
  ...config.options,
  validate: true,
  ruleSet: { forbidden: config.forbidden },
  outputType: process.env.DC_OUT ?? 'err',
})
process.stdout.write(result.output)
process.exitCode = result.exitCode
