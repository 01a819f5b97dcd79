import type { IncomingMessage, ServerResponse } from 'node:http'
import { AuthError } from './errors.ts'

const API_VERSION = '2024-01-01'

/** Request bodies here are a few hundred bytes; anything near this is not a client of ours. */
const MAX_BODY_BYTES = 64 * 1024

export type JsonObject = Record<string, unknown>

/** Reads the request body as a JSON object; an empty body counts as `{}`. */
export async function readJsonBody(req: IncomingMessage): Promise<JsonObject> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new AuthError(413, 'request_too_large', 'Request body too large')
    chunks.push(chunk)
  }
  const text = Buffer.concat(chunks).toString('utf8').trim()
  if (!text) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${(error as Error).message}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON: expected an object')
  }
  return parsed as JsonObject
}

/** The token of an `Authorization: Bearer …` header, if any. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')
  return match?.[1]
}

function baseHeaders(): Record<string, string> {
  // The client only reads the string `code` field when this header says 2024-01-01 or later.
  return { 'X-Supabase-Api-Version': API_VERSION, 'Cache-Control': 'no-store' }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const payload = JSON.stringify(body)
  res.writeHead(status, {
    ...baseHeaders(),
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
  })
  res.end(payload)
}

export function sendNoContent(res: ServerResponse, headers: Record<string, string> = {}) {
  res.writeHead(204, { ...baseHeaders(), ...headers })
  res.end()
}

export function sendError(res: ServerResponse, error: AuthError) {
  sendJson(res, error.status, error.toJSON(), error.headers)
}

/**
 * The client's address. Only the app (on loopback) talks to this server, and it forwards its own
 * client's address in X-Forwarded-For, which is trusted from loopback peers only.
 */
export function clientAddress(req: IncomingMessage): string {
  const peer = req.socket.remoteAddress ?? 'unknown'
  const loopback = peer === '127.0.0.1' || peer === '::1' || peer === '::ffff:127.0.0.1'
  const forwarded = req.headers['x-forwarded-for']
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim()
  return loopback && first ? first : peer
}
