import type { oas31 } from 'zod-openapi'

/**
 * Reading the API's OpenAPI 3.1 document for the /developers reference: local `$ref`s, a schema's type
 * as people read it, and a request body's fields flattened to one table (nested objects as dotted names).
 */

export type OpenApiDocument = oas31.OpenAPIObject
export type OpenApiSchema = oas31.SchemaObject
type MaybeRef<T> = T | oas31.ReferenceObject

function isRef(value: unknown): value is oas31.ReferenceObject {
  return typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string'
}

/** Follows local `$ref`s (`#/components/…`), through chains; a ref the document does not hold is `undefined`. */
export function resolveRef<T>(document: OpenApiDocument, value: MaybeRef<T> | undefined): T | undefined {
  let current: unknown = value
  for (let hops = 0; isRef(current); hops++) {
    if (hops > 20 || !current.$ref.startsWith('#/')) return undefined
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), document)
  }
  return current as T | undefined
}

/** A `$ref` with sibling keywords (3.1 allows `description` next to it): the siblings win over the target's. */
export function resolveSchema(document: OpenApiDocument, value: MaybeRef<OpenApiSchema> | undefined): OpenApiSchema | undefined {
  if (!isRef(value)) return value
  const { $ref: _ref, ...siblings } = value as oas31.ReferenceObject & OpenApiSchema
  const target = resolveRef<OpenApiSchema>(document, value)
  return target ? { ...target, ...siblings } : undefined
}

const typesOf = (schema: OpenApiSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [])

/** Variants of `anyOf`/`oneOf`, with `null` split off: `X | null` reads as a nullable X. */
function variants(document: OpenApiDocument, schema: OpenApiSchema): { options: OpenApiSchema[]; nullable: boolean } {
  const all = (schema.anyOf ?? schema.oneOf ?? []).map((item) => resolveSchema(document, item)).filter((item) => item !== undefined)
  const options = all.filter((item) => !(typesOf(item).length === 1 && typesOf(item)[0] === 'null'))
  return { options, nullable: options.length < all.length }
}

/** "string (uuid)", "array of string", "integer | null", "object". */
export function schemaType(document: OpenApiDocument, value: MaybeRef<OpenApiSchema> | undefined, depth = 0): string {
  const schema = resolveSchema(document, value)
  if (!schema || depth > 4) return 'any'
  if (schema.anyOf || schema.oneOf) {
    const { options, nullable } = variants(document, schema)
    const labels = [...new Set(options.map((option) => schemaType(document, option, depth + 1)))]
    return [...labels, ...(nullable ? ['null'] : [])].join(' | ') || 'any'
  }
  const types = typesOf(schema)
  if (types.length === 0) {
    if (schema.properties || schema.allOf) return 'object'
    if (schema.const !== undefined) return typeof schema.const
    if (schema.enum?.length) return typeof schema.enum[0]
    return 'any'
  }
  return types
    .map((type) => {
      if (type === 'array') return `array of ${schemaType(document, schema.items as MaybeRef<OpenApiSchema> | undefined, depth + 1)}`
      if (type === 'string' && schema.format) return `string (${schema.format})`
      return type
    })
    .join(' | ')
}

/** The allowed values of a schema, or of an array's items ("enrichments": each one of …). */
export function schemaEnum(document: OpenApiDocument, value: MaybeRef<OpenApiSchema> | undefined): string[] | undefined {
  const schema = resolveSchema(document, value)
  if (!schema) return undefined
  if (schema.const !== undefined) return [String(schema.const)]
  if (schema.enum?.length) return schema.enum.filter((item) => item !== null).map(String)
  if (typesOf(schema).includes('array')) return schemaEnum(document, schema.items as MaybeRef<OpenApiSchema> | undefined)
  if (schema.anyOf || schema.oneOf) {
    const values = variants(document, schema).options.flatMap((option) => schemaEnum(document, option) ?? [])
    return values.length ? values : undefined
  }
  return undefined
}

export interface SchemaConstraint {
  kind: 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems' | 'maxItems'
  value: number
}

// zod's `.int()` writes the safe-integer range as bounds: true, but no reader needs to be told.
const SAFE = Number.MAX_SAFE_INTEGER

export function schemaConstraints(document: OpenApiDocument, value: MaybeRef<OpenApiSchema> | undefined): SchemaConstraint[] {
  const schema = resolveSchema(document, value)
  if (!schema) return []
  const kinds = ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const
  return kinds.flatMap((kind) => {
    const bound = schema[kind]
    return typeof bound === 'number' && Math.abs(bound) < SAFE ? [{ kind, value: bound }] : []
  })
}

export interface SchemaField {
  /** Dotted path: `criteria.city`, `entries[].value`. */
  name: string
  type: string
  /** Required within its parent object. */
  required: boolean
  description?: string
  enum?: string[]
  default?: string
  constraints: SchemaConstraint[]
}

interface ObjectShape {
  properties: Record<string, MaybeRef<OpenApiSchema>>
  required: Set<string>
}

/** Properties of an object schema, merging `allOf` parts and offering each `oneOf`/`anyOf` variant's (optional). */
function objectShape(document: OpenApiDocument, schema: OpenApiSchema, depth: number): ObjectShape | undefined {
  if (depth > 6) return undefined
  const shape: ObjectShape = { properties: { ...(schema.properties ?? {}) }, required: new Set(schema.required ?? []) }
  for (const part of schema.allOf ?? []) {
    const resolved = resolveSchema(document, part)
    const inner = resolved && objectShape(document, resolved, depth + 1)
    if (!inner) continue
    Object.assign(shape.properties, inner.properties)
    inner.required.forEach((name) => shape.required.add(name))
  }
  if (schema.anyOf || schema.oneOf) {
    for (const option of variants(document, schema).options) {
      const inner = objectShape(document, option, depth + 1)
      if (inner) Object.assign(shape.properties, inner.properties)
    }
  }
  return Object.keys(shape.properties).length ? shape : undefined
}

/** The element schema of an array of objects, to flatten as `name[].field`. */
function arrayItems(document: OpenApiDocument, schema: OpenApiSchema): OpenApiSchema | undefined {
  if (!typesOf(schema).includes('array')) return undefined
  return resolveSchema(document, schema.items as MaybeRef<OpenApiSchema> | undefined)
}

/** Every field of an object schema, depth first, nested objects and arrays of objects flattened under their parent. */
export function schemaFields(document: OpenApiDocument, value: MaybeRef<OpenApiSchema> | undefined, prefix = '', depth = 0): SchemaField[] {
  const schema = resolveSchema(document, value)
  const shape = schema && objectShape(document, schema, depth)
  if (!shape || depth > 6) return []
  return Object.entries(shape.properties).flatMap(([key, property]) => {
    const resolved = resolveSchema(document, property)
    if (!resolved) return []
    const name = `${prefix}${key}`
    const field: SchemaField = {
      name,
      type: schemaType(document, resolved),
      required: shape.required.has(key),
      description: resolved.description,
      enum: schemaEnum(document, resolved),
      default: resolved.default === undefined ? undefined : JSON.stringify(resolved.default),
      constraints: schemaConstraints(document, resolved),
    }
    const items = arrayItems(document, resolved)
    const children = items ? schemaFields(document, items, `${name}[].`, depth + 1) : schemaFields(document, resolved, `${name}.`, depth + 1)
    return [field, ...children]
  })
}
