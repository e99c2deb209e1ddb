// uvu 0.5 runs a suite's before() hooks inside a try whose finally returns: an error thrown there is dropped, and the
// suite prints (0 / N). This module, given to the test processes with `--import` (scripts/run-tests.mjs,
// scripts/uvu.mjs), registers a load hook that rewrites that one line of uvu's runner as it is loaded: the error is
// printed to stderr with its stack, then thrown as before (scripts/uvu-summary.mjs still fails the tests never run).
import { register } from 'node:module'

const BEFORE = 'for (hook of before) await hook(state);'
const LOGGED =
  'try { for (hook of before) await hook(state); } catch (err) { console.error("\\n[uvu] before() de la suite « " + name + " » en échec :", err); throw err; }'

/** The load hook (run in the loader's thread). */
export async function load(url, context, next) {
  const loaded = await next(url, context)
  if (!/\/uvu\/dist\/index\.mjs$/.test(url)) return loaded
  const source = String(loaded.source)
  if (!source.includes(BEFORE)) throw new Error('uvu-before-errors : le runner de uvu a changé, la ligne des before() est introuvable')
  return { ...loaded, source: source.replace(BEFORE, LOGGED) }
}

// Imported with --import on the main thread: register this same file as the hooks' module.
if (!process.env.UVU_BEFORE_ERRORS_HOOK) {
  process.env.UVU_BEFORE_ERRORS_HOOK = '1'
  register(import.meta.url)
}
