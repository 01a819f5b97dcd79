import { sample } from 'openapi-sampler'
import type { oas31 } from 'zod-openapi'
import { resolveRef, resolveSchema, type OpenApiDocument, type OpenApiSchema } from './api-reference-schema.ts'

/**
 * Example values for the /developers reference, from the document's own `example`/`examples`/`default`
 * (openapi-sampler fills what they leave out from types and formats). A request example keeps the required
 * fields and the optional ones the document gives a value: "city": "string" in a curl body helps no one.
 */

type Direction = 'request' | 'response'

const hasOwnValue = (schema: OpenApiSchema) =>
  schema.example !== undefined || (Array.isArray(schema.examples) && schema.examples.length > 0) || schema.default !== undefined || schema.const !== undefined

/** Whether the schema, or something inside it, has a value the document chose. */
function mentionsValue(document: OpenApiDocument, value: OpenApiSchema | oas31.ReferenceObject | undefined, depth = 0): boolean {
  const schema = resolveSchema(document, value)
  if (!schema || depth > 6) return false
  if (hasOwnValue(schema)) return true
  const nested = [
    ...Object.values(schema.properties ?? {}),
    ...(schema.allOf ?? []),
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.items && typeof schema.items === 'object' ? [schema.items as OpenApiSchema] : []),
  ]
  return nested.some((child) => mentionsValue(document, child, depth + 1))
}

/** A copy with `$ref`s inlined and, in objects, only required properties and those the document gave a value. */
function pruneForRequest(document: OpenApiDocument, value: OpenApiSchema | oas31.ReferenceObject | undefined, depth = 0): OpenApiSchema | undefined {
  const schema = resolveSchema(document, value)
  if (!schema || depth > 8 || hasOwnValue(schema)) return schema
  const pruned: OpenApiSchema = { ...schema }
  if (schema.properties) {
    const required = new Set(schema.required ?? [])
    pruned.properties = Object.fromEntries(
      Object.entries(schema.properties)
        .filter(([name, property]) => required.has(name) || mentionsValue(document, property))
        .map(([name, property]) => [name, pruneForRequest(document, property, depth + 1) ?? {}]),
    )
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (schema[key]) pruned[key] = schema[key].map((part) => pruneForRequest(document, part, depth + 1) ?? {})
  }
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
    pruned.items = pruneForRequest(document, schema.items as OpenApiSchema, depth + 1)
  }
  return pruned
}

/** An example value for a schema, as a request would send it or a response would carry it. */
export function exampleFromSchema(document: OpenApiDocument, value: OpenApiSchema | oas31.ReferenceObject | undefined, direction: Direction): unknown {
  if (!value) return undefined
  const schema = direction === 'request' ? pruneForRequest(document, value) : value
  if (!schema) return undefined
  return sample(schema as Parameters<typeof sample>[0], { skipReadOnly: direction === 'request', skipWriteOnly: direction === 'response', quiet: true }, document)
}

/** A media type's example: its own `example`, else its first `examples` entry, else one built from its schema. */
export function exampleFromMedia(document: OpenApiDocument, media: oas31.MediaTypeObject, direction: Direction): unknown {
  if (media.example !== undefined) return media.example
  const first = Object.values(media.examples ?? {})[0]
  const example = first ? resolveRef<oas31.ExampleObject>(document, first) : undefined
  if (example?.value !== undefined) return example.value
  return exampleFromSchema(document, media.schema, direction)
}
