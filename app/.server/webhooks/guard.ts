/**
 * The SSRF guard of webhook URLs (../shared/API.md "Webhooks"): the crawler's rules (enrichment/ssrf.ts), checked when
 * an endpoint is saved (with DNS, so a name of a private address is refused at once) and again at every delivery, at
 * connect time (http.ts). https only in production; WEBHOOK_ALLOW_HOSTS names the loopback hosts a test or a local
 * deployment may deliver to, over http too.
 */
import { validateEnv, type Env } from '#app/.server/env.server.ts'
import { GuardError, HostAllowList, resolveVetted, systemLookup, vetUrl, type LookupFn } from '#app/.server/enrichment/ssrf.ts'

export interface WebhookNetwork {
  allowList: HostAllowList
  lookup: LookupFn
  /** Refuse plain http (but for allow-listed hosts). */
  httpsOnly: boolean
}

export function webhookNetwork(config: Env = validateEnv()): WebhookNetwork {
  return {
    allowList: new HostAllowList(config.WEBHOOK_ALLOW_HOSTS.split(',')),
    lookup: systemLookup,
    httpsOnly: (config.NODE_ENV ?? 'production') === 'production',
  }
}

export type WebhookUrlRefusal = 'blocked' | 'https_required'

/** Syntax, scheme, port and host name, before any DNS: why the URL may not be used, or null. */
export function vetWebhookUrl(url: string, network: WebhookNetwork): WebhookUrlRefusal | null {
  try {
    const target = vetUrl(url, network.allowList)
    if (network.httpsOnly && !target.allowListed && target.url.protocol !== 'https:') return 'https_required'
    return null
  } catch (error) {
    if (error instanceof GuardError) return error.code === 'blocked_scheme' ? 'https_required' : 'blocked'
    throw error
  }
}

/**
 * vetWebhookUrl, then every address the name resolves to must be public (unless allow-listed). A name that does not
 * resolve (yet, or not from here) is accepted: nothing can be sent to it, each attempt is re-vetted at connect time,
 * and the failures show in the endpoint's log.
 */
export async function checkWebhookUrl(url: string, network: WebhookNetwork): Promise<WebhookUrlRefusal | null> {
  const refusal = vetWebhookUrl(url, network)
  if (refusal) return refusal
  const { hostname, port } = vetUrl(url, network.allowList)
  try {
    await resolveVetted(hostname, port, network.allowList, network.lookup)
    return null
  } catch (error) {
    return error instanceof GuardError ? 'blocked' : null
  }
}
