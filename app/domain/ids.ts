const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A UUID in its canonical text form (ids in URLs, JWT claims, webhook metadata): anything else is refused before SQL casts it. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value)
}
