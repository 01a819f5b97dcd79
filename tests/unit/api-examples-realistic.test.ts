// Issue 28 item 11: the /developers examples come from openapi-sampler over the document's schemas; a bare z.int()
// samples as -9007199254740991 and a bare string as "string". Every example of every operation must look like data.
import { describe, expect, it } from 'vitest'
import { openApiDocument } from '#app/.server/api-v1/openapi.ts'
import { exampleFromMedia } from '#app/domain/api-reference-examples.ts'
import type { OpenApiDocument } from '#app/domain/api-reference-schema.ts'

const document = openApiDocument() as OpenApiDocument

interface Media {
  content?: Record<string, object>
}

/** Numbers no account, count or price can be, and placeholder strings, with where they are. */
function unrealistic(value: unknown, where: string, found: string[]): string[] {
  if (typeof value === 'number' && Math.abs(value) > 1e9) found.push(`${where} = ${value}`)
  // An opaque cursor or a file's bytes have no better sample.
  if (value === 'string' && !/next_cursor$|\/file \d+$/.test(where)) found.push(`${where} = "string"`)
  if (Array.isArray(value)) value.forEach((item, index) => unrealistic(item, `${where}[${index}]`, found))
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) unrealistic(item, `${where}.${key}`, found)
  return found
}

describe('the /developers examples', () => {
  it('show realistic values in every request and answer (no -9007199254740991, no "string")', () => {
    const found: string[] = []
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const method of ['get', 'post', 'patch', 'delete'] as const) {
        const operation = (item as Record<string, { responses?: Record<string, Media>; requestBody?: Media } | undefined>)[method]
        if (!operation) continue
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (Number(status) >= 400) continue
          for (const media of Object.values(response.content ?? {})) unrealistic(exampleFromMedia(document, media as never, 'response'), `${method} ${path} ${status}`, found)
        }
        for (const media of Object.values(operation.requestBody?.content ?? {})) unrealistic(exampleFromMedia(document, media as never, 'request'), `${method} ${path} body`, found)
      }
    }
    expect(found).toEqual([])
  })
})
