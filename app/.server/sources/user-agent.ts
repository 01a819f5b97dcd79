/**
 * The User-Agent every request to a public data service (Overpass, the registry probe) carries: Overpass operators
 * ask for a way to reach whoever sends the traffic. The contact is LEADATLAS_CONTACT_URL; unset, the deployment's
 * public APP_URL (a loopback or private address reaches nobody, so it is skipped); else the product's bot page.
 */
import ipaddr from 'ipaddr.js'
import type { Env } from '#app/.server/env.server.ts'

export const DEFAULT_CONTACT_URL = 'https://leadatlas.app/bot'

/** Whether someone outside this machine's network could open `url`. */
function isPublicUrl(url: string): boolean {
  let host: string
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false
    host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  } catch {
    return false
  }
  if (ipaddr.isValid(host)) return ipaddr.process(host).range() === 'unicast'
  return host.includes('.') && !/(^|\.)(localhost|local|internal|lan|home|test|example|invalid)$/.test(host)
}

export function contactUrl(config: Pick<Env, 'LEADATLAS_CONTACT_URL' | 'APP_URL'>): string {
  if (config.LEADATLAS_CONTACT_URL) return config.LEADATLAS_CONTACT_URL
  if (config.APP_URL && isPublicUrl(config.APP_URL)) return config.APP_URL
  return DEFAULT_CONTACT_URL
}

export function leadSourceUserAgent(config: Pick<Env, 'LEADATLAS_CONTACT_URL' | 'APP_URL'>): string {
  return `LeadAtlas/0.1 (+${contactUrl(config)})`
}
