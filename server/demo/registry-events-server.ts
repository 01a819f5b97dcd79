/**
 * A local stand-in for the two registry-event sources, in their real formats, serving the data its caller gives
 * (tests: fixtures; the demo: a generated history):
 *
 *   GET {inseeUrl}/siret?q=dateDernierTraitementEtablissement:<day>&nombre=<n>&curseur=<c>   (INSEE Sirene 3.11)
 *       → { header: { statut, message, total, debut, nombre, curseur, curseurSuivant }, etablissements: [...] };
 *         the key in X-INSEE-Api-Key-Integration (401 without it), `curseur=*` first, the last page names itself as
 *         the next one, 404 with header.statut 404 for a day with nothing (as INSEE answers an empty result)
 *   GET {bodaccUrl}/api/explore/v2.1/catalog/datasets/annonces-commerciales/exports/json
 *       ?where=dateparution=date'<day>'&refine=familleavis:<family>                          (DILA, Opendatasoft)
 *       → the JSON array of that day's records of that family (every family we read when no refine)
 *
 * Both on one loopback port (server/demo/serve.ts).
 */
import { BODACC_FAMILIES } from '#app/.server/registry-events/bodacc-export.ts'
import type { SireneEtablissement } from '#app/domain/sirene-record.ts'
import { type DemoReply, serveDemo } from './serve.ts'

/** A record of the `annonces-commerciales` dataset as its export writes it (nested fields as JSON text). */
export type BodaccRecord = Record<string, unknown>

export interface RegistryEventsServerOptions {
  establishmentsOn(day: string): readonly SireneEtablissement[]
  announcementsOn(day: string, family: string): readonly BodaccRecord[]
  /** The key INSEE must be sent; when not given, any non-empty key is taken. */
  apiKey?: string
  port?: number
  /** The most establishments per Sirene page (the API's is 1000); `nombre` asks for fewer. */
  pageSize?: number
  /** Answer the first call to the API named this status (default 429 with Retry-After, Sirene), then normally. */
  failOnce?: { api?: 'sirene' | 'bodacc'; status?: 429 | 502 | 503 | 504; retryAfterSeconds?: number }
}

export interface RegistryEventsServer {
  /** INSEE_API_URL. */
  inseeUrl: string
  /** BODACC_URL. */
  bodaccUrl: string
  stop(): Promise<void>
  /** Calls received, answered or not. */
  requests: { sirene: number; bodacc: number }
}

const SIRENE_PATH = '/api-sirene/3.11'
const BODACC_EXPORT_PATH = '/api/explore/v2.1/catalog/datasets/annonces-commerciales/exports/json'
const INSEE_DEFAULT_PAGE = 20

function json(status: number, body: unknown, headers: Record<string, string> = {}): DemoReply {
  return { status, headers: { 'Content-Type': 'application/json;charset=utf-8', ...headers }, body: JSON.stringify(body) }
}

/** Sirene's own error answers carry only a header. */
function sireneError(status: number, message: string): DemoReply {
  return json(status, { header: { statut: status, message } })
}

/** Opaque to the client, as INSEE's are; it only has to be echoed back. */
function cursorOf(day: string, offset: number): string {
  return `AoE${Buffer.from(`${day}|${offset}`).toString('base64')}`
}

function offsetOf(cursor: string, day: string): number | null {
  if (cursor === '*') return 0
  const [cursorDay, offset] = Buffer.from(cursor.slice(3), 'base64').toString().split('|')
  return cursor.startsWith('AoE') && cursorDay === day && /^\d+$/.test(offset ?? '') ? Number(offset) : null
}

function sireneReply(query: URLSearchParams, options: RegistryEventsServerOptions, day: string, establishments: readonly SireneEtablissement[]): DemoReply {
  const nombre = Math.min(Number(query.get('nombre') ?? INSEE_DEFAULT_PAGE) || INSEE_DEFAULT_PAGE, options.pageSize ?? 1000)
  const cursor = query.get('curseur')
  const offset = cursor === null ? Number(query.get('debut') ?? 0) : offsetOf(cursor, day)
  if (offset === null || !Number.isInteger(offset) || offset < 0) return sireneError(400, `Valeur de curseur invalide : ${cursor}`)
  if (establishments.length === 0) return sireneError(404, `Aucun élément trouvé pour q=${query.get('q')}`)
  const page = establishments.slice(offset, offset + nombre)
  const last = offset + page.length >= establishments.length
  const header = { statut: 200, message: 'OK', total: establishments.length, debut: offset, nombre: page.length }
  const paging = cursor === null ? {} : { curseur: cursor, curseurSuivant: last ? cursor : cursorOf(day, offset + page.length) }
  return json(200, { header: { ...header, ...paging }, etablissements: page })
}

function bodaccReply(query: URLSearchParams, options: RegistryEventsServerOptions): DemoReply {
  const day = /^dateparution\s*=\s*date'(\d{4}-\d{2}-\d{2})'$/.exec(query.get('where')?.trim() ?? '')?.[1]
  if (!day) return json(400, { error_code: 'ODSQLError', message: `Unsupported where clause: ${query.get('where') ?? ''}` })
  const refined = query.getAll('refine').flatMap((refine) => /^familleavis:"?([a-z_]+)"?$/.exec(refine)?.[1] ?? [])
  const families = refined.length > 0 ? refined : BODACC_FAMILIES
  return json(200, families.flatMap((family) => options.announcementsOn(day, family)))
}

export async function startRegistryEventsServer(options: RegistryEventsServerOptions): Promise<RegistryEventsServer> {
  const requests = { sirene: 0, bodacc: 0 }
  let failOnce = options.failOnce
  // A day's establishments are asked once per pass over the day (its first page), not once per page.
  let cached: { day: string; establishments: readonly SireneEtablissement[] } | null = null
  const server = await serveDemo('registry-events', { port: options.port ?? 0 }, (method, path, req) => {
    const url = new URL(path, 'http://localhost')
    const api = url.pathname === `${SIRENE_PATH}/siret` ? 'sirene' : url.pathname === BODACC_EXPORT_PATH ? 'bodacc' : null
    if (!api || method !== 'GET') return json(404, { message: 'Not found' })
    requests[api] += 1
    if (failOnce && (failOnce.api ?? 'sirene') === api) {
      const { status = 429, retryAfterSeconds = 1 } = failOnce
      failOnce = undefined
      return json(status, { header: { statut: status, message: 'Trop de requêtes' } }, { 'Retry-After': String(retryAfterSeconds) })
    }
    if (api === 'bodacc') return bodaccReply(url.searchParams, options)
    const key = req.headers['x-insee-api-key-integration']
    // The portal's gateway answers a missing or wrong key before Sirene sees the call.
    if (!key || (options.apiKey !== undefined && key !== options.apiKey)) return json(401, { message: 'Unauthorized', http_status_code: 401 })
    const day = /^dateDernierTraitementEtablissement:(\d{4}-\d{2}-\d{2})$/.exec(url.searchParams.get('q') ?? '')?.[1]
    if (!day) return sireneError(400, `Erreur de syntaxe dans le paramètre q=${url.searchParams.get('q') ?? ''}`)
    const curseur = url.searchParams.get('curseur')
    if (cached?.day !== day || curseur === '*' || curseur === null) cached = { day, establishments: options.establishmentsOn(day) }
    return sireneReply(url.searchParams, options, day, cached.establishments)
  })
  return { inseeUrl: `${server.url}${SIRENE_PATH}`, bodaccUrl: server.url, stop: () => server.stop(), requests }
}
