/** What a handler answers; the router writes it with the common headers. */
export type Reply = { status: 204 } | { status: number; body: unknown }
