// Unknown fields of a request (issue 28): zod objects drop keys they do not name, so a typo (`hasWebsite` for
// `has_website`) silently widened a preview an export would then charge for. The dispatcher refuses them for every
// operation's query and body, at any depth, by walking the operation's own schema beside the value sent.
import type { z } from 'zod'

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  catchall?: z.ZodType
  innerType?: z.ZodType
  in?: z.ZodType
  element?: z.ZodType
  items?: z.ZodType[]
  rest?: z.ZodType | null
  options?: z.ZodType[]
  left?: z.ZodType
  right?: z.ZodType
  getter?: () => z.ZodType
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The keys an object schema (or any option of a union of them) names; null when it takes any key. */
function knownKeys(schema: z.ZodType, depth = 0): Set<string> | null {
  if (depth > 20) return null
  const def = defOf(schema)
  if (def.type === 'object') return def.catchall && defOf(def.catchall).type !== 'never' ? null : new Set(Object.keys(def.shape ?? {}))
  const inner = def.innerType ?? def.in ?? def.getter?.()
  if (inner) return knownKeys(inner, depth + 1)
  if (def.type === 'union' && def.options) {
    const keys = new Set<string>()
    for (const option of def.options) {
      const known = knownKeys(option, depth + 1)
      if (!known) return null
      for (const key of known) keys.add(key)
    }
    return keys
  }
  if (def.type === 'intersection' && def.left && def.right) {
    const left = knownKeys(def.left, depth + 1)
    const right = knownKeys(def.right, depth + 1)
    return left && right ? new Set([...left, ...right]) : null
  }
  return null
}

/** The schema of `key` inside an object schema (through wrappers and unions), if any. */
function fieldSchema(schema: z.ZodType, key: string, depth = 0): z.ZodType | undefined {
  if (depth > 20) return undefined
  const def = defOf(schema)
  if (def.type === 'object') return def.shape?.[key]
  const inner = def.innerType ?? def.in ?? def.getter?.()
  if (inner) return fieldSchema(inner, key, depth + 1)
  for (const option of def.options ?? [def.left, def.right].filter((side): side is z.ZodType => Boolean(side))) {
    const found = fieldSchema(option, key, depth + 1)
    if (found) return found
  }
  return undefined
}

function itemSchema(schema: z.ZodType, index: number, depth = 0): z.ZodType | undefined {
  if (depth > 20) return undefined
  const def = defOf(schema)
  if (def.type === 'array') return def.element
  if (def.type === 'tuple') return def.items?.[index] ?? def.rest ?? undefined
  const inner = def.innerType ?? def.in ?? def.getter?.()
  return inner ? itemSchema(inner, index, depth + 1) : undefined
}

/** The paths (`filters.hasWebsite`) of the keys in `value` that `schema` does not know, at most `max`. */
export function unknownFields(schema: z.ZodType, value: unknown, max = 20): string[] {
  const found: string[] = []
  const walk = (current: z.ZodType, sent: unknown, path: string[], depth: number) => {
    if (found.length >= max || depth > 32) return
    if (isObject(sent)) {
      const known = knownKeys(current)
      for (const key of Object.keys(sent)) {
        if (known && !known.has(key)) {
          found.push([...path, key].join('.'))
          if (found.length >= max) return
          continue
        }
        const child = fieldSchema(current, key)
        if (child) walk(child, sent[key], [...path, key], depth + 1)
      }
    } else if (Array.isArray(sent)) {
      sent.slice(0, 10_000).forEach((item, index) => {
        const child = itemSchema(current, index)
        if (child) walk(child, item, [...path, String(index)], depth + 1)
      })
    }
  }
  walk(schema, value, [], 0)
  return found
}
