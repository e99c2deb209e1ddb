// The JSON body parser: Fastify's own (secure-json-parse, __proto__ and constructor refused), after a check of how deep
// the body nests. JSON.parse of a deeply nested body holds the event loop: a file route's 13 MB limit held as
// '[[[[…]]]]' took 8 to 10 s to refuse on this project's machine, every other request of the instance waiting (found in
// review; the routes without a file are refused past 256 KB before parsing). No body of the contract nests beyond a
// few levels: past MAX_JSON_DEPTH the request is refused with a French 400 before anything is parsed.
import type { FastifyInstance } from 'fastify'
import { HttpError } from './errors.ts'

/** Objects and arrays within one another, at most (the contract's bodies nest three levels at most). */
export const MAX_JSON_DEPTH = 32

export const tooDeepMessage = 'Le corps de la requête est trop imbriqué.'

/**
 * Whether the JSON text nests objects and arrays deeper than `max`. One pass, whose strings (a file's data URL: the
 * bulk of a large body) are skipped by indexOf, so a 13 MB upload costs microseconds.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // The string's closing quote: the next one not escaped (preceded by an even number of backslashes).
      for (let end = text.indexOf('"', i + 1); ; end = text.indexOf('"', end + 1)) {
        if (end < 0) return false
        let slashes = 0
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++
        if (slashes % 2 === 0) {
          i = end
          break
        }
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true
    } else if (c === 0x5d || c === 0x7d) {
      depth--
    }
  }
  return false
}

/** Replaces the application/json parser with Fastify's default one behind the depth check. */
export function registerJsonBodyParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(new HttpError(400, tooDeepMessage, 'JSON_TOO_DEEP'), undefined)
    parse(req, text, done)
  })
}
