/**
 * The demo world's mail zone: the DNS answers email verification gets with LEADS_SOURCE=demo and no
 * EMAIL_DNS_SERVERS, so `npm start` verifies demo emails offline (README "Email verification").
 *   - the webmail domains demo businesses use (FREE_MAIL): their MX hosts, as recorded from the public DNS
 *   - a demo business's own domain (`<name-slug>.fr`, site.ts): an MX `mx.<domain>` (the demo sites do take mail)
 *   - anything else: NXDOMAIN, so an address on an unknown domain is `invalid` as it would be on the internet
 * Mail hosts have no address here: the optional SMTP check cannot reach them (every address `risky`).
 * The verifier's canary (a domain that must resolve before an NXDOMAIN is believed) is DEMO_MAIL_CANARY here.
 */
import type { MailDns } from '#app/.server/enrichment/email-verification.ts'
import { FREE_MAIL } from './site.ts'

const RECORDED_MX: Readonly<Record<string, string>> = {
  'orange.fr': 'smtp-in.orange.fr',
  'wanadoo.fr': 'smtp-in.orange.fr',
  'gmail.com': 'gmail-smtp-in.l.google.com',
  'free.fr': 'mx1.free.fr',
  'sfr.fr': 'mx.sfr.fr',
  'laposte.net': 'smtp-in.laposte.net',
  'outlook.fr': 'outlook-fr.olc.protection.outlook.com',
}

/** The demo zone answers it (a recorded webmail): whatever EMAIL_DNS_CANARY says, the demo zone's canary is this one. */
export const DEMO_MAIL_CANARY = 'gmail.com'

/** The shape of a demo business domain (site.ts: trimmed name slug, optionally with its city, then .fr). */
const BUSINESS_DOMAIN = /^[a-z0-9]+(?:-[a-z0-9]+)*\.fr$/

function notFound(domain: string): Error {
  return Object.assign(new Error(`queryMx ENOTFOUND ${domain}`), { code: 'ENOTFOUND' })
}

function mxHost(domain: string): string | null {
  if (FREE_MAIL.includes(domain)) return RECORDED_MX[domain] ?? null
  // "email.fr" is the decoy of the demo pages' contact form (votre@email.fr): not a business.
  return BUSINESS_DOMAIN.test(domain) && domain !== 'email.fr' ? `mx.${domain}` : null
}

export const demoMailDns: MailDns = {
  async resolveMx(domain) {
    const host = mxHost(domain.toLowerCase())
    if (!host) throw notFound(domain)
    return [{ exchange: host, priority: 10 }]
  },
  async resolve4(domain) {
    throw notFound(domain)
  },
  async resolve6(domain) {
    throw notFound(domain)
  },
}
