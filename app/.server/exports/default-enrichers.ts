/**
 * The real enrichment engine (app/.server/enrichment) behind the pipeline's Enrichers interface, configured from the
 * environment (types and defaults: app/.server/env-schema.server.ts):
 *
 *   ENRICH_ALLOW_HOSTS           host or host:port the crawler may reach although private/loopback (demo, fixtures)
 *   ENRICH_TIMEOUT_MS            per request
 *   ENRICH_HOST_CONCURRENCY      requests in flight per website host (politeness)
 *   ENRICH_DEMO_HOST_CONCURRENCY in flight to the demo websites server, which hosts every demo site
 *   DEMO_WEBSITES_URL            the demo websites server (its host gets the demo concurrency when allow-listed)
 *   REGISTRY_URL                 French registry base URL (unset: the public API, https://recherche-entreprises.api.gouv.fr)
 *   REGISTRY_REQUESTS_PER_SECOND unset: 7 (the public API's limit), or 100 for an allow-listed local registry (demo)
 *   EMAIL_DNS_* / EMAIL_SMTP_*   email verification (app/.server/enrichment/email-verification.ts); the demo source
 *                                (LEADS_SOURCE=demo, or auto resolved to it) without EMAIL_DNS_SERVERS answers from
 *                                the demo mail zone (sources/demo/mail-dns.ts), with its own canary
 */
import { createRegistryClient, createWebsiteCrawler, normalizePhone } from '#app/.server/enrichment/index.ts'
import { allowListFromEnv } from '#app/.server/enrichment/ssrf.ts'
import { createEmailVerifier, type EmailVerifier } from '#app/.server/enrichment/email-verification.ts'
import { DEMO_MAIL_CANARY, demoMailDns } from '#app/.server/sources/demo/mail-dns.ts'
import { effectiveLeadSource } from '#app/.server/sources/index.ts'
import type { Enrichers } from './enrichers.ts'
import { validateEnv, type Env } from '#app/.server/env.server.ts'

/** The host of a configured URL (the schema has checked it parses), lower case. */
function hostOf(url: string | undefined): string | null {
  return url ? new URL(url).host.toLowerCase() : null
}

function emailVerifierFrom(config: Env): EmailVerifier {
  const dnsServers = config.EMAIL_DNS_SERVERS.split(',').map((server) => server.trim()).filter(Boolean)
  const demoZone = effectiveLeadSource(config) === 'demo' && dnsServers.length === 0
  return createEmailVerifier({
    dns: demoZone ? demoMailDns : undefined,
    canary: demoZone ? DEMO_MAIL_CANARY : config.EMAIL_DNS_CANARY,
    dnsServers,
    dnsTimeoutMs: config.EMAIL_DNS_TIMEOUT_MS,
    cacheSize: config.EMAIL_DNS_CACHE_SIZE,
    smtp: config.EMAIL_SMTP_CHECK
      ? {
          port: config.EMAIL_SMTP_PORT,
          timeoutMs: config.EMAIL_SMTP_TIMEOUT_MS,
          heloName: hostOf(config.APP_URL)?.replace(/:\d+$/, '') || 'localhost',
          allowHosts: config.EMAIL_SMTP_ALLOW_HOSTS.split(',').map((host) => host.trim()).filter(Boolean),
        }
      : undefined,
  })
}

export function createDefaultEnrichers(config: Env = validateEnv()): Enrichers {
  const allowHosts = allowListFromEnv(config).map((host) => host.toLowerCase())
  const demoHost = hostOf(config.DEMO_WEBSITES_URL)
  const hostConcurrency: Record<string, number> = {}
  if (demoHost && allowHosts.includes(demoHost)) hostConcurrency[demoHost] = config.ENRICH_DEMO_HOST_CONCURRENCY
  const crawler = createWebsiteCrawler({
    allowHosts,
    timeoutMs: config.ENRICH_TIMEOUT_MS,
    perDomainConcurrency: config.ENRICH_HOST_CONCURRENCY,
    hostConcurrency,
  })
  const registryUrl = config.REGISTRY_URL
  const localRegistry = Boolean(registryUrl && allowHosts.includes(hostOf(registryUrl) ?? ''))
  const registry = createRegistryClient({
    baseUrl: registryUrl,
    requestsPerSecond: config.REGISTRY_REQUESTS_PER_SECOND ?? (localRegistry ? 100 : 7),
  })
  return {
    crawl: (url, options) => crawler.crawl(url, options),
    reachSite: (url, options) => crawler.reachable(url, options),
    lookupRegistry: async (query, options) => {
      const result = await registry.lookup(query, options)
      if (result.status === 'success') return { status: 'success', info: JSON.parse(JSON.stringify(result.info)) }
      if (result.status === 'failed') return { status: 'failed', error: result.error }
      return { status: 'not_found' }
    },
    normalizePhone: (raw, countryCode) => normalizePhone(raw, countryCode),
    emailVerifier: emailVerifierFrom(config),
    close: () => crawler.close(),
  }
}
