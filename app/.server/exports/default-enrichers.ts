/**
 * The real enrichment engine (app/.server/enrichment) behind the pipeline's Enrichers interface, configured from the
 * environment:
 *
 *   ENRICH_ALLOW_HOSTS           host or host:port the crawler may reach although private/loopback (demo, fixtures)
 *   ENRICH_TIMEOUT_MS            per request (default 8000)
 *   ENRICH_HOST_CONCURRENCY      requests in flight per website host (default 2: politeness)
 *   ENRICH_DEMO_HOST_CONCURRENCY in flight to the demo websites server, which hosts every demo site (default 64)
 *   DEMO_WEBSITES_URL            the demo websites server (its host gets the demo concurrency when allow-listed)
 *   REGISTRY_URL                 French registry base URL (default https://recherche-entreprises.api.gouv.fr)
 *   REGISTRY_REQUESTS_PER_SECOND default 7 (the public API's limit); 100 for an allow-listed local registry (demo)
 */
import { createRegistryClient, createWebsiteCrawler, normalizePhone } from '#app/.server/enrichment/index.ts'
import type { Enrichers } from './enrichers.ts'
import { envRecord } from '#app/.server/env.server.ts'

function positive(value: string | undefined): number | undefined {
  const number = Number(value)
  return Number.isFinite(number) && number > 0 ? number : undefined
}

function hostOf(url: string | undefined): string | null {
  if (!url) return null
  try {
    return new URL(url).host.toLowerCase()
  } catch {
    return null
  }
}

export function createDefaultEnrichers(env: NodeJS.ProcessEnv = envRecord()): Enrichers {
  const allowHosts = (env.ENRICH_ALLOW_HOSTS ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean)
  const demoHost = hostOf(env.DEMO_WEBSITES_URL)
  const hostConcurrency: Record<string, number> = {}
  if (demoHost && allowHosts.includes(demoHost)) hostConcurrency[demoHost] = positive(env.ENRICH_DEMO_HOST_CONCURRENCY) ?? 64
  const crawler = createWebsiteCrawler({
    allowHosts,
    timeoutMs: positive(env.ENRICH_TIMEOUT_MS) ?? 8_000,
    perDomainConcurrency: positive(env.ENRICH_HOST_CONCURRENCY) ?? 2,
    hostConcurrency,
  })
  const registryUrl = env.REGISTRY_URL?.trim() || undefined
  const localRegistry = Boolean(registryUrl && allowHosts.includes(hostOf(registryUrl) ?? ''))
  const registry = createRegistryClient({
    baseUrl: registryUrl,
    requestsPerSecond: positive(env.REGISTRY_REQUESTS_PER_SECOND) ?? (localRegistry ? 100 : 7),
  })
  return {
    crawl: (url, options) => crawler.crawl(url, options),
    lookupRegistry: async (query, options) => {
      const result = await registry.lookup(query, options)
      if (result.status === 'success') return { status: 'success', info: JSON.parse(JSON.stringify(result.info)) }
      if (result.status === 'failed') return { status: 'failed', error: result.error }
      return { status: 'not_found' }
    },
    normalizePhone: (raw, countryCode) => normalizePhone(raw, countryCode),
    close: () => crawler.close(),
  }
}
