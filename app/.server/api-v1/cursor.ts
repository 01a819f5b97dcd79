// Opaque page cursors (../shared/API.md "lists page with ?cursor="): the last row's sort key, base64url JSON. A cursor
// the client altered is refused as a validation error, never trusted into a query unchecked.
import { z } from 'zod'

export function encodeCursor(position: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url')
}

/** A cursor we did not give: the dispatcher answers it 400 `invalid_cursor` (dispatch.ts), whichever list it was sent to. */
export class InvalidCursor extends Error {
  constructor() {
    super('invalid cursor')
    this.name = 'InvalidCursor'
  }
}

const ISO_DATE = /^(\d{4,})-\d\d-\d\dT/

/**
 * Whether every value of a position can reach a query: a date with a year Postgres and JavaScript agree on (year 0000
 * passes the ISO shape but is out of Postgres's range: a 500 before), integers JavaScript holds exactly.
 */
function storable(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(storable)
  if (typeof value === 'number') return Number.isSafeInteger(value)
  if (typeof value !== 'string') return value === null || typeof value === 'boolean'
  const date = ISO_DATE.exec(value)
  if (!date) return true
  const year = Number(date[1])
  return year >= 1 && year <= 9999 && Number.isFinite(Date.parse(value))
}

/** The position a cursor carries; throws InvalidCursor when it is not one of ours (shape, or a value out of range). */
export function decodeCursor<T extends z.ZodType>(cursor: string, shape: T): z.output<T> {
  let parsed: ReturnType<T['safeParse']> | undefined
  try {
    parsed = shape.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))) as ReturnType<T['safeParse']>
  } catch {
    throw new InvalidCursor()
  }
  if (!parsed.success || !storable(parsed.data)) throw new InvalidCursor()
  return parsed.data as z.output<T>
}

/** The position of the lists newest first: the last row's creation date and id. */
export const CreatedCursor = z.tuple([z.iso.datetime({ offset: true }), z.uuid()])

export const CursorParam = z.string().max(500).optional().meta({ description: 'The `next_cursor` of the previous page; absent for the first page.' })

/** `?limit=`: default 50, at most `max`. */
export function limitParam(max: number, fallback = 50) {
  return z.coerce.number().int().min(1).max(max).default(fallback).meta({ description: `Items per page (1–${max}, default ${fallback}).` })
}

/** A list answer: `{ data, next_cursor }`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable().meta({ description: 'Pass it as `cursor` for the next page; null on the last page.' }) })
}
