/**
 * LEADS_SOURCE=auto: real data when it can be had. Resolved once, at start-up (server/start.ts, server/worker.ts),
 * into the source every later read of LEADS_SOURCE sees (a runtime setting), and recorded here with the reason so
 * the UI can say why it shows demo data.
 *
 * Two probes run in parallel, each bounded by SOURCE_PROBE_TIMEOUT_MS (start-up waits at most one timeout):
 * - Overpass (OVERPASS_URL): a tiny query (`node(1); out ids;`). An Overpass JSON answer proves the interpreter
 *   runs queries; a 429 proves it too (the source starts in back-off for the Retry-After).
 * - the registry (REGISTRY_URL, else recherche-entreprises): `GET /search?q=boulangerie&per_page=1`, a JSON
 *   `results` list (or a 429).
 *
 * Outcome:
 * - Overpass answers → `osm`, and the registry is the real one (REGISTRY_URL or recherche-entreprises). When the
 *   registry did not answer it stays the real one all the same (lookups then fail and cost nothing, and work again
 *   when it is back): the demo registry invents a company for most names, which must never be attached to real
 *   businesses. The search page says the registry could not be reached.
 * - Overpass does not answer → `demo`, with the banner "Demo data — OpenStreetMap could not be reached"; the
 *   registry is then the local demo registry (demo businesses are fictional: looking them up in the real registry
 *   would spend its quota on names that do not exist), unless REGISTRY_URL is set and answered.
 * - LEADS_SOURCE=demo | osm | google: that source, no probe (as before: demo starts the demo registry unless
 *   REGISTRY_URL is set).
 *
 * Unresolved `auto` (a script or a test that never ran start-up) reads as demo: offline and deterministic.
 */
import { parseRetryAfter } from '#app/utils/headers.ts'
import { contactUrl, leadSourceUserAgent } from './user-agent.ts'
import { backOffOverpass } from './osm.ts'
import type { LeadSourceName } from './types.ts'
import type { Env } from '#app/.server/env.server.ts'

export const PUBLIC_REGISTRY_URL = 'https://recherche-entreprises.api.gouv.fr'
/** The probe's Overpass QL: one node by id, ids only. */
export const OVERPASS_PROBE_QUERY = '[out:json][timeout:5];node(1);out ids;'

interface ProbeResult {
  ok: boolean
  /** How long the answer took (ms). */
  ms: number
  /** What answered, or why nothing did ("connection refused", "no answer within 4 s", "HTTP 503"). */
  detail: string
}

interface RegistrySelection {
  /** demo: the local demo registry (npm start starts it); real: `url`. */
  kind: 'demo' | 'real'
  /** The real registry's base URL (REGISTRY_URL or recherche-entreprises). */
  url: string
  /** Whether it answered the start-up probe; undefined when not probed (explicit LEADS_SOURCE). */
  reachable?: boolean
  detail?: string
}

export interface SourceSelection {
  requested: Env['LEADS_SOURCE']
  source: LeadSourceName
  /** auto only: why the source is not OpenStreetMap (the UI shows the demo-data fallback banner). */
  fallback: { reason: 'osm_unreachable'; detail: string } | null
  registry: RegistrySelection
  /** One line for the start-up log: which source, which registry, and why. */
  summary: string
}

/** "connection refused" rather than "fetch failed": the cause undici wraps. */
function failureDetail(error: unknown, deadline: AbortSignal, timeoutMs: number): string {
  if (deadline.aborted) return `no answer within ${timeoutMs / 1000} s`
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if (cause?.code === 'ECONNREFUSED') return 'connection refused'
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return 'host name not resolved'
  // fetch never connects to the Fetch standard's "bad ports" (1, 7, 9, 25…).
  if (cause?.message === 'bad port') return 'port refused by fetch (bad port)'
  return cause?.code ?? cause?.message ?? (error as Error).message
}

async function probe(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  judge: (status: number, body: unknown) => string | null,
): Promise<ProbeResult & { status?: number; headers?: Headers }> {
  const started = performance.now()
  const deadline = AbortSignal.timeout(timeoutMs)
  const elapsed = () => Math.round(performance.now() - started)
  try {
    const response = await fetchImpl(url, { ...init, signal: deadline })
    const text = await response.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    const problem = judge(response.status, body)
    return { ok: problem === null, ms: elapsed(), detail: problem ?? `answered in ${elapsed()} ms`, status: response.status, headers: response.headers }
  } catch (error) {
    return { ok: false, ms: elapsed(), detail: failureDetail(error, deadline, timeoutMs) }
  }
}

interface ProbeOptions {
  timeoutMs: number
  userAgent: string
  fetch?: typeof fetch
}

/** Whether the Overpass interpreter at `endpoint` runs queries. A 429 counts (and starts the source's back-off). */
async function probeOverpass(endpoint: string, options: ProbeOptions): Promise<ProbeResult> {
  const result = await probe(
    options.fetch ?? fetch,
    endpoint,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': options.userAgent, Accept: 'application/json' },
      body: new URLSearchParams({ data: OVERPASS_PROBE_QUERY }).toString(),
    },
    options.timeoutMs,
    (status, body) => {
      if (status === 429) return null
      if (status !== 200) return `HTTP ${status}`
      const json = body as { elements?: unknown; remark?: unknown } | undefined
      return Array.isArray(json?.elements) || typeof json?.remark === 'string' ? null : 'not an Overpass answer'
    },
  )
  if (result.ok && result.status === 429) {
    const wait = backOffOverpass(endpoint, parseRetryAfter(result.headers?.get('retry-after') ?? null))
    return { ok: true, ms: result.ms, detail: `answered 429 (rate limited: first request in ${wait} s)` }
  }
  return { ok: result.ok, ms: result.ms, detail: result.detail }
}

/** Whether the registry API at `baseUrl` answers a search. */
async function probeRegistry(baseUrl: string, options: ProbeOptions): Promise<ProbeResult> {
  const url = `${baseUrl.replace(/\/+$/, '')}/search?${new URLSearchParams({ q: 'boulangerie', per_page: '1' })}`
  const result = await probe(options.fetch ?? fetch, url, { headers: { Accept: 'application/json', 'User-Agent': options.userAgent } }, options.timeoutMs, (status, body) => {
    if (status === 429) return null
    if (status !== 200) return `HTTP ${status}`
    return Array.isArray((body as { results?: unknown } | undefined)?.results) ? null : 'not a registry answer'
  })
  return { ok: result.ok, ms: result.ms, detail: result.status === 429 ? 'answered 429 (rate limited)' : result.detail }
}

const SOURCE_NAMES: Record<LeadSourceName, string> = { demo: 'demo data', osm: 'OpenStreetMap', google: 'Google Places' }

/** Resolves LEADS_SOURCE (probing only for `auto`). */
export async function resolveSourceSelection(config: Env, options: { fetch?: typeof fetch } = {}): Promise<SourceSelection> {
  const registryUrl = (config.REGISTRY_URL ?? PUBLIC_REGISTRY_URL).replace(/\/+$/, '')
  const requested = config.LEADS_SOURCE
  if (requested !== 'auto') {
    const registry: RegistrySelection = { kind: requested === 'demo' && !config.REGISTRY_URL ? 'demo' : 'real', url: registryUrl }
    const registryText = registry.kind === 'demo' ? 'the local demo registry' : registryUrl
    return { requested, source: requested, fallback: null, registry, summary: `Lead source: ${SOURCE_NAMES[requested]} (LEADS_SOURCE=${requested}); registry: ${registryText}` }
  }

  const probeOptions = { timeoutMs: config.SOURCE_PROBE_TIMEOUT_MS, userAgent: leadSourceUserAgent(config), fetch: options.fetch }
  const [overpass, registryProbe] = await Promise.all([probeOverpass(config.OVERPASS_URL, probeOptions), probeRegistry(registryUrl, probeOptions)])
  const registryState = registryProbe.ok ? `answered in ${registryProbe.ms} ms` : `could not be reached: ${registryProbe.detail}`

  if (overpass.ok) {
    const registry: RegistrySelection = { kind: 'real', url: registryUrl, reachable: registryProbe.ok, detail: registryProbe.detail }
    const registryText = registryProbe.ok
      ? `${registryUrl} (${registryState})`
      : `${registryUrl} ${registryState} (kept: registry lookups fail, at no cost, until it answers)`
    return {
      requested,
      source: 'osm',
      fallback: null,
      registry,
      summary: `Lead source: OpenStreetMap (LEADS_SOURCE=auto: Overpass at ${config.OVERPASS_URL} ${overpass.detail}; User-Agent contact ${contactUrl(config)}); registry: ${registryText}`,
    }
  }

  const useConfigured = Boolean(config.REGISTRY_URL) && registryProbe.ok
  const registry: RegistrySelection = { kind: useConfigured ? 'real' : 'demo', url: registryUrl, reachable: registryProbe.ok, detail: registryProbe.detail }
  const registryText = useConfigured
    ? `${registryUrl} (${registryState})`
    : config.REGISTRY_URL
      ? `the local demo registry (${registryUrl} ${registryState})`
      : 'the local demo registry (demo businesses are fictional)'
  return {
    requested,
    source: 'demo',
    fallback: { reason: 'osm_unreachable', detail: overpass.detail },
    registry,
    summary: `Lead source: demo data (LEADS_SOURCE=auto: OpenStreetMap could not be reached at ${config.OVERPASS_URL}: ${overpass.detail}); registry: ${registryText}`,
  }
}

const SELECTION_KEY = Symbol.for('leadatlas.sourceSelection')
type WithSelection = typeof globalThis & { [SELECTION_KEY]?: SourceSelection }

/** Records the resolved selection for this process (on globalThis: the app's bundle reads it too). */
export function setSourceSelection(selection: SourceSelection | undefined): void {
  ;(globalThis as WithSelection)[SELECTION_KEY] = selection
}

/** The selection start-up resolved, if it ran in this process. */
export function getSourceSelection(): SourceSelection | undefined {
  return (globalThis as WithSelection)[SELECTION_KEY]
}

/** What the UI says about the data behind the search (app/routes/search.tsx). */
export interface SourceNotices {
  /** auto fell back to demo data: OpenStreetMap could not be reached. */
  osmUnreachable: boolean
  /** The real registry is used but did not answer at start-up. */
  registryUnreachable: boolean
}

export function sourceNotices(selection = getSourceSelection()): SourceNotices {
  return {
    osmUnreachable: selection?.fallback?.reason === 'osm_unreachable',
    registryUnreachable: selection?.registry.kind === 'real' && selection.registry.reachable === false,
  }
}
