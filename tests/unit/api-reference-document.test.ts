import { STATUS_CODES } from 'node:http'
import { describe, expect, it } from 'vitest'
import { openApiDocument } from '#app/.server/api-v1/openapi.ts'
import { PROBLEM_CODES } from '#app/.server/api-v1/problem.ts'
import { buildApiReference, slug } from '#app/domain/api-reference.ts'
import type { OpenApiDocument } from '#app/domain/api-reference-schema.ts'
import en from '#app/locales/en.json'
import fr from '#app/locales/fr.json'

// The real document (app/.server/api-v1/openapi.ts), as GET /api/v1/openapi.json serves it.
const document = openApiDocument() as OpenApiDocument
const operations = Object.values(document.paths ?? {}).flatMap((item) => [item.get, item.post, item.put, item.patch, item.delete].filter((operation) => operation !== undefined))
const french = fr.developers as unknown as { operations: Record<string, { summary?: string; description?: string }>; tags: Record<string, { summary?: string }> }
const reference = buildApiReference(document, { origin: 'https://leadatlas.example', statusText: (status) => STATUS_CODES[status] })
const listed = reference.groups.flatMap((group) => group.operations)

describe('the /developers reference of the real API document', () => {
  it('has a French summary for every operation, and a French description wherever the document has one', () => {
    const missing = operations.filter((operation) => !french.operations[operation.operationId!]?.summary).map((operation) => operation.operationId)
    expect(missing, 'operations without developers.operations.<id>.summary in fr.json').toEqual([])
    const undescribed = operations.filter((operation) => operation.description && !french.operations[operation.operationId!]?.description).map((operation) => operation.operationId)
    expect(undescribed, 'operations without developers.operations.<id>.description in fr.json').toEqual([])
  })

  it('keeps in en.json exactly the document’s own English, so both locale files hold the same keys', () => {
    const english = en.developers as unknown as { operations: Record<string, { summary?: string; description?: string }>; tags: Record<string, { summary?: string }> }
    const fromDocument = Object.fromEntries(operations.map((operation) => [operation.operationId!, { summary: operation.summary, ...(operation.description ? { description: operation.description } : {}) }]))
    expect(english.operations).toEqual(fromDocument)
    expect(english.tags).toEqual(Object.fromEntries(operations.map((operation) => [slug(operation.tags![0]!), { summary: operation.tags![0] }])))
  })

  it('has no French text for an operation or a tag the document no longer has', () => {
    const ids = new Set(operations.map((operation) => operation.operationId))
    expect(Object.keys(french.operations).filter((id) => !ids.has(id))).toEqual([])
    const tags = new Set(operations.map((operation) => slug(operation.tags![0]!)))
    expect(Object.keys(french.tags).filter((tag) => !tags.has(tag))).toEqual([])
    expect([...tags].filter((tag) => !french.tags[tag]?.summary)).toEqual([])
  })

  it('lists every operation once, with its full path and the API base URL', () => {
    expect(listed.map((operation) => operation.id).sort()).toEqual(operations.map((operation) => operation.operationId).sort())
    expect(reference.baseUrl).toBe('https://leadatlas.example/api/v1')
    for (const operation of listed) expect(operation.path).toMatch(/^\/api\/v1\//)
    const create = listed.find((operation) => operation.id === 'createExport')!
    expect(create).toMatchObject({ idempotent: true, requiresAuth: true })
    expect(create.curl).toContain("curl -X POST 'https://leadatlas.example/api/v1/exports'")
    expect(create.curl).toContain("-H 'Idempotency-Key: ")
    expect(create.body!.fields.map((field) => field.name)).toEqual(expect.arrayContaining(['name', 'criteria.country', 'enrichments']))
  })

  it('saves the export file with curl, its answer described as a file of the documented types', () => {
    const file = listed.find((operation) => operation.id === 'getExportFile')!
    expect(file.curl).toMatch(/ -OJ$/)
    expect(file.responses.find((response) => response.status === '200')).toMatchObject({ example: undefined, contentTypes: expect.arrayContaining(['text/csv']) })
    expect(listed.find((operation) => operation.id === 'getExport')!.curl).not.toContain('-OJ')
  })

  it('documents every stable error code with its statuses, and error examples link to their row', () => {
    expect(reference.errorCodes.map((info) => info.code)).toEqual([...PROBLEM_CODES])
    expect(reference.errorCodes.find((info) => info.code === 'not_found')!.statuses).toEqual(['404'])
    const notFound = listed.find((operation) => operation.id === 'getExport')!.responses.find((response) => response.status === '404')!
    expect(JSON.parse(notFound.example!)).toMatchObject({
      type: 'https://leadatlas.example/developers#error-not_found',
      title: 'Not Found',
      status: 404,
      code: 'not_found',
    })
  })

  it('shows a webhook delivery with the export object of the document', () => {
    const payload = JSON.parse(reference.webhookPayload) as { type: string; data: { export: Record<string, unknown> } }
    expect(payload.type).toBe('export.completed')
    expect(Object.keys(payload.data.export)).toEqual(expect.arrayContaining(['id', 'status', 'progress', 'lead_count', 'credits_used', 'enrichments']))
  })
})
