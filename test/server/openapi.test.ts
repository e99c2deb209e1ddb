// The OpenAPI document as outside tools read it: valid OpenAPI 3.1 (the official schema, through
// @seriousme/openapi-schema-validator), every Schema Object valid JSON Schema 2020-12 (Ajv), and what the linters
// ask beyond the schema: servers, described tags, a declared security scheme for each way in.
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { routes, type RouteDef } from '../../server/contract/routes.ts'
import { openApiDocument } from '../../server/http/openapi.ts'
import { buildTestApp, type TestApp } from '../util/server.ts'

type Json = Record<string, any>

interface Ctx {
  t: TestApp
  doc: Json
}

async function validate(document: Json) {
  const validator = new Validator()
  // The validator may keep or fill what it is handed: a copy, so the document under test stays as served.
  const result = await validator.validate(structuredClone(document))
  return { ...result, version: validator.version }
}

/** Every Schema Object of the document, with where it sits (parameters, request bodies, responses). */
function schemaObjects(document: Json): [string, Json][] {
  const found: [string, Json][] = []
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      const at = `${method.toUpperCase()} ${path}`
      for (const parameter of operation.parameters ?? []) found.push([`${at} parameter ${parameter.name}`, parameter.schema])
      for (const [type, media] of Object.entries((operation.requestBody?.content ?? {}) as Json))
        found.push([`${at} body ${type}`, media.schema])
      for (const [code, response] of Object.entries(operation.responses as Json))
        for (const [type, media] of Object.entries((response.content ?? {}) as Json)) found.push([`${at} ${code} ${type}`, media.schema])
    }
  }
  return found
}

const operations = (document: Json) =>
  Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, operation]) => ({ path, method, operation: operation as Json })),
  )

const served = suite<Ctx>('the OpenAPI document served by the API')
served.before(async (ctx) => {
  ctx.t = await buildTestApp({ seed: false })
  ctx.doc = (await ctx.t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
})
served.after((ctx) => ctx.t?.close())

served('is a valid OpenAPI 3.1 document, the same at /api/openapi.json and /api/docs/json', async ({ t, doc }) => {
  const result = await validate(doc)
  assert.equal(result.errors, undefined, JSON.stringify(result.errors)?.slice(0, 2000))
  assert.ok(result.valid)
  assert.is(result.version, '3.1')
  assert.is(doc.openapi, '3.1.0')
  assert.is(doc.jsonSchemaDialect, 'https://spec.openapis.org/oas/3.1/dialect/base')
  const ui = await t.app.inject({ method: 'GET', url: '/api/docs/json' })
  assert.is(ui.statusCode, 200)
  assert.equal(ui.json(), doc)
})

served('the same document declared 3.0.3 is refused, as outside linters refused it (type null, const)', async ({ doc }) => {
  const result = await validate({ ...doc, openapi: '3.0.3' })
  assert.not.ok(result.valid)
  assert.ok(Array.isArray(result.errors) && result.errors.length > 0)
})

served('a broken document is refused: the validator does check 3.1', async ({ doc }) => {
  const [first] = operations(doc)
  const brokenOperation = structuredClone(doc)
  brokenOperation.paths[first!.path][first!.method].responses = { '200': { content: {} } } // a response needs a description
  assert.not.ok((await validate(brokenOperation)).valid)
  const brokenScheme = structuredClone(doc)
  brokenScheme.components.securitySchemes.apiToken = { type: 'apiKey', name: 'apiToken' } // `in` missing
  assert.not.ok((await validate(brokenScheme)).valid)
  assert.not.ok((await validate({ ...doc, servers: [{ description: 'sans adresse' }] })).valid)
  assert.not.ok((await validate({ ...doc, tags: [{ description: 'sans nom' }] })).valid)
})

served('every Schema Object is valid JSON Schema 2020-12 (what the 3.1 dialect is built on)', ({ doc }) => {
  const ajv = new Ajv2020({ strict: false })
  const schemas = schemaObjects(doc)
  assert.ok(schemas.length > Object.keys(routes).length, 'the responses at least')
  for (const [where, schema] of schemas) assert.ok(ajv.validateSchema(schema), `${where}: ${ajv.errorsText(ajv.errors)}`)
  // The check can fail: a misspelt type is refused.
  assert.not.ok(ajv.validateSchema({ type: 'nul' }))
  assert.not.ok(ajv.validateSchema({ type: 'object', required: 'id' }))
})

served('lists a server and every tag a route uses, each described', ({ doc }) => {
  // The app names its PUBLIC_URL (the test app's is the default, on localhost).
  assert.equal(doc.servers, [{ url: 'http://localhost:8080', description: 'L’adresse publique du service' }])
  const used = new Set(Object.values(routes as Record<string, RouteDef>).flatMap((route) => route.tags))
  const listed = (doc.tags as { name: string; description: string }[]).map((tag) => tag.name)
  assert.equal(new Set(listed), used)
  assert.is(listed.length, used.size, 'each tag once')
  for (const tag of doc.tags) assert.ok(tag.description?.length > 10, `${tag.name} is described`)
  for (const { operation } of operations(doc)) for (const tag of operation.tags) assert.ok(listed.includes(tag), tag)
})

served('each operation requires the security scheme of its route’s auth, and every scheme is declared', ({ doc }) => {
  const schemes = doc.components.securitySchemes as Json
  assert.equal([schemes.apiToken.type, schemes.apiToken.in, schemes.apiToken.name], ['apiKey', 'header', 'apiToken'])
  assert.is(schemes.bearer.type, 'http')
  assert.is(schemes.bearer.scheme, 'bearer')
  assert.is(schemes.operator.scheme, 'bearer')
  for (const scheme of Object.values(schemes)) assert.ok(scheme.description, 'each scheme says which token it takes')
  const expected: Record<RouteDef['auth'], unknown[]> = {
    none: [],
    apiToken: [{ apiToken: [] }],
    bearer: [{ bearer: [] }],
    operator: [{ operator: [] }],
    operatorSession: [{ operatorSession: [] }],
  }
  const byId = new Map(operations(doc).map(({ operation }) => [operation.operationId, operation]))
  assert.is(byId.size, Object.keys(routes).length, 'operationIds are unique, one per route')
  for (const [name, route] of Object.entries(routes as Record<string, RouteDef>)) {
    const operation = byId.get(name)!
    assert.equal(operation.security, expected[route.auth], name)
    for (const requirement of operation.security) for (const scheme of Object.keys(requirement)) assert.ok(schemes[scheme], scheme)
  }
})

served.run()

const configured = suite('the OpenAPI document with a public address')

configured('without a public address, the server is this one', async () => {
  assert.equal(openApiDocument('Domicilium').servers, [{ url: '/', description: 'Ce serveur' }])
})

configured('names PUBLIC_URL as its server', async () => {
  const doc = openApiDocument('Domicilium', 'https://portail.example.fr')
  assert.equal(doc.servers, [{ url: 'https://portail.example.fr', description: 'L’adresse publique du service' }])
  assert.ok((await validate(doc)).valid)
})

configured.run()
