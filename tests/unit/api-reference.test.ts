import { describe, expect, it } from 'vitest'
import { buildApiReference, type ReferenceOperation } from '#app/domain/api-reference.ts'
import { buildCurl, buildUrl, shellQuote } from '#app/domain/api-reference-curl.ts'
import { exampleFromSchema } from '#app/domain/api-reference-examples.ts'
import { schemaFields, schemaType, type OpenApiDocument, type OpenApiSchema } from '#app/domain/api-reference-schema.ts'
import { referenceDocument } from '#tests/fixtures/openapi/reference-document.ts'

// createDocument is typed for OpenAPI 3.2 as well; the document is 3.1 (buildApiReference takes either).
const document = referenceDocument as OpenApiDocument

const reference = buildApiReference(document, { origin: 'https://leads.example.com' })
const operation = (id: string) => reference.groups.flatMap((group) => group.operations).find((item) => item.id === id) as ReferenceOperation

describe('curl builder', () => {
  it('single-quotes values, a quote inside included, so nothing expands', () => {
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`)
  })

  it('double-quotes only the API key header, so the variable expands', () => {
    const curl = buildCurl({ method: 'get', url: 'https://x.test/api/v1/me', headers: [{ name: 'Authorization', value: 'Bearer $KEY', expand: true }] })
    expect(curl).toBe(`curl 'https://x.test/api/v1/me' \\\n  -H "Authorization: Bearer $KEY"`)
  })

  it('refuses an expanding value that could break out of its quotes', () => {
    expect(() => buildCurl({ method: 'get', url: 'https://x.test', headers: [{ name: 'X', value: '"; rm -rf /', expand: true }] })).toThrow()
  })

  it('sends a body as pretty JSON with its content type, quotes escaped', () => {
    const curl = buildCurl({ method: 'post', url: 'https://x.test/e', headers: [], body: { name: "O'Neil" } })
    expect(curl).toContain(`curl -X POST 'https://x.test/e'`)
    expect(curl).toContain(`-H 'Content-Type: application/json'`)
    expect(curl).toContain(`--data '{\n  "name": "O'\\''Neil"\n}'`)
  })

  it('saves a file answer under the name the server gives', () => {
    expect(buildCurl({ method: 'get', url: 'https://x.test/f', headers: [], saveFile: true })).toBe(`curl 'https://x.test/f' \\\n  -OJ`)
  })

  it('fills path parameters (encoded) and appends the query', () => {
    expect(buildUrl('https://x.test/api/v1/', '/exports/{id}', { id: 'a b' }, [['limit', '10']])).toBe('https://x.test/api/v1/exports/a%20b?limit=10')
  })
})

describe('example generator', () => {
  const body = (document.paths!['/exports']!.post!.requestBody as { content: Record<string, { schema: OpenApiSchema }> }).content['application/json']!.schema

  it('builds a request body from the examples and defaults, leaving out optional fields the document gives no value', () => {
    expect(exampleFromSchema(document, body, 'request')).toEqual({
      name: 'Bakeries in Lyon',
      criteria: { sector: 'bakery', country: 'FR', city: 'Lyon' },
      enrichments: ['phone', 'email'],
      only_new: false,
    })
  })

  it('builds a full response object through $refs, nulls kept', () => {
    const example = exampleFromSchema(document, { $ref: '#/components/schemas/Export' }, 'response') as Record<string, unknown>
    expect(example).toMatchObject({ id: '0b9c7a52-3f0e-4d7b-a7c1-5d2e9f1a6b34', status: 'running', progress: { phase: 'enriching', done: 12, total: 40 }, completed_at: null })
  })
})

describe('schema fields', () => {
  const body = (document.paths!['/exports']!.post!.requestBody as { content: Record<string, { schema: OpenApiSchema }> }).content['application/json']!.schema

  it('flattens nested objects with dotted names, required within the parent, enums of array items listed', () => {
    const fields = schemaFields(document, body)
    expect(fields.map((field) => field.name)).toEqual(['name', 'criteria', 'criteria.sector', 'criteria.country', 'criteria.region', 'criteria.city', 'enrichments', 'max_leads', 'only_new'])
    const byName = Object.fromEntries(fields.map((field) => [field.name, field]))
    expect(byName['criteria.sector']).toMatchObject({ type: 'string', required: true, description: 'Category id (see GET /categories)' })
    expect(byName['criteria.city']).toMatchObject({ required: false })
    expect(byName['enrichments']).toMatchObject({ type: 'array of string', enum: ['phone', 'website', 'email', 'technologies', 'social', 'admin_fr_info'] })
    expect(byName['enrichments']!.constraints).toEqual([{ kind: 'minItems', value: 1 }])
    expect(byName['name']!.constraints).toEqual([{ kind: 'minLength', value: 1 }, { kind: 'maxLength', value: 100 }])
    expect(byName['only_new']).toMatchObject({ type: 'boolean', default: 'false' })
  })

  it('flattens arrays of objects as name[].field and reads nullable types', () => {
    const problem = schemaFields(document, { $ref: '#/components/schemas/Problem' })
    expect(problem.map((field) => field.name)).toContain('errors[].path')
    expect(schemaType(document, { type: ['string', 'null'] })).toBe('string | null')
    expect(schemaType(document, { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] })).toBe('string (uuid) | null')
  })
})

describe('reference sections', () => {
  it('groups every operation by tag in the document order, untagged last, with anchors', () => {
    expect(reference.groups.map((group) => [group.tag, group.operations.map((item) => item.id)])).toEqual([
      ['Account', ['getMe']],
      ['Exports', ['listExports', 'createExport', 'deleteExport']],
      ['API', ['getOpenApi']],
    ])
    expect(operation('createExport')).toMatchObject({ anchor: 'op-createexport', method: 'POST', path: '/api/v1/exports', idempotent: true, requiresAuth: true })
    expect(reference.baseUrl).toBe('https://leads.example.com/api/v1')
  })

  it('lists parameters with type, place, requirement, enum and default', () => {
    expect(operation('listExports').parameters).toEqual([
      { name: 'status', in: 'query', type: 'string', required: false, description: 'Only exports in this status', enum: ['queued', 'running', 'completed'], default: undefined, constraints: [] },
      { name: 'limit', in: 'query', type: 'integer', required: false, description: undefined, enum: undefined, default: '50', constraints: [{ kind: 'minimum', value: 1 }, { kind: 'maximum', value: 100 }] },
      { name: 'cursor', in: 'query', type: 'string', required: false, description: undefined, enum: undefined, default: undefined, constraints: [] },
    ])
    expect(operation('deleteExport').parameters[0]).toMatchObject({ name: 'id', in: 'path', type: 'string (uuid)', required: true, description: 'The export id' })
  })

  it('builds curl with the API key variable, the Idempotency-Key and the example body', () => {
    const curl = operation('createExport').curl
    expect(curl).toMatch(/^curl -X POST 'https:\/\/leads\.example\.com\/api\/v1\/exports'/)
    expect(curl).toContain('-H "Authorization: Bearer $LEADATLAS_API_KEY"')
    expect(curl).toContain(`-H 'Idempotency-Key: `)
    expect(curl).toContain('"sector": "bakery"')
    expect(operation('deleteExport').curl).toBe(
      `curl -X DELETE 'https://leads.example.com/api/v1/exports/0b9c7a52-3f0e-4d7b-a7c1-5d2e9f1a6b34' \\\n  -H "Authorization: Bearer $LEADATLAS_API_KEY"`,
    )
    expect(operation('listExports').curl).not.toContain('Idempotency-Key')
  })

  it('leaves the key out where the document requires no authentication', () => {
    expect(operation('getOpenApi')).toMatchObject({ requiresAuth: false, curl: `curl 'https://leads.example.com/api/v1/openapi.json'` })
  })

  it('gives an example answer per documented status, problem+json included, none for 204', () => {
    const responses = operation('deleteExport').responses
    expect(responses.map((response) => [response.status, response.contentType])).toEqual([
      ['204', undefined],
      ['404', 'application/problem+json'],
    ])
    expect(responses[0]!.example).toBeUndefined()
    expect(JSON.parse(responses[1]!.example!)).toMatchObject({ status: 404, code: 'not_found' })
    expect(operation('createExport').body).toMatchObject({ contentType: 'application/json', required: true, type: 'object' })
  })

  it('takes summaries and descriptions from the translation, the English text when there is none', () => {
    const french = buildApiReference(document, {
      origin: 'https://leads.example.com',
      text: ({ operationId, tag, field }, english) => (operationId === 'getMe' && field === 'summary' ? 'Le titulaire de la clé' : tag === 'Exports' && field === 'summary' ? 'Exports (fr)' : english),
    })
    const ops = french.groups.flatMap((group) => group.operations)
    expect(ops.find((item) => item.id === 'getMe')!.summary).toBe('Le titulaire de la clé')
    expect(ops.find((item) => item.id === 'listExports')!.summary).toBe('List exports')
    expect(french.groups[1]!.tag).toBe('Exports (fr)')
  })
})
