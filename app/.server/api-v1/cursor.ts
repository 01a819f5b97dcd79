// Opaque page cursors (../shared/API.md "lists page with ?cursor="): the last row's sort key, base64url JSON. A cursor
// the client altered is refused as a validation error, never trusted into a query unchecked.
import { z } from 'zod'

export function encodeCursor(position: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url')
}

/** The position a cursor carries when it has this shape, else null. */
export function decodeCursor<T extends z.ZodType>(cursor: string, shape: T): z.output<T> | null {
  try {
    const parsed = shape.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export const CursorParam = z.string().max(500).optional().meta({ description: 'The `next_cursor` of the previous page; absent for the first page.' })

/** `?limit=`: default 50, at most `max`. */
export function limitParam(max: number, fallback = 50) {
  return z.coerce.number().int().min(1).max(max).default(fallback).meta({ description: `Items per page (1–${max}, default ${fallback}).` })
}

/** A list answer: `{ data, next_cursor }`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable().meta({ description: 'Pass it as `cursor` for the next page; null on the last page.' }) })
}
