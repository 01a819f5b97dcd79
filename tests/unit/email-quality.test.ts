// Email verification rules (app/domain/email-quality.ts), the demo mail zone, and what the email task keeps.
import { describe, expect, it } from 'vitest'
import { decideEmailStatus, emailCheck, formatEmailChecks, isDeliverableSyntax, isRoleAddress, isWebmailDomain, validEmailsOnly } from '#app/domain/email-quality.ts'
import { createEmailVerifier, createLruCache, isDisposableDomain, verifyFoundEmails } from '#app/.server/enrichment/email-verification.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { enrichLead, type Enrichers } from '#app/.server/exports/enrichers.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { demoSite } from '#app/.server/sources/demo/site.ts'

describe('isDeliverableSyntax', () => {
  it.each([
    'contact@boulangerie.fr',
    'jean.dupont+devis@cabinet-martin.fr',
    "o'neil@example.co.uk",
    '"jean dupont"@example.fr',
    'a@xn--caf-dma.fr',
    'x@café.fr',
  ])('accepts %s', (email) => expect(isDeliverableSyntax(email)).toBe(true))

  it.each([
    'plainaddress',
    '@example.fr',
    'jean@',
    'jean..dupont@example.fr',
    '.jean@example.fr',
    'jean.@example.fr',
    'jean@localhost',
    'jean@example',
    'jean@-example.fr',
    'jean@example-.fr',
    'jean@exa_mple.fr',
    'jean@[192.168.0.1]',
    'jean dupont@example.fr',
    `${'a'.repeat(65)}@example.fr`,
    `a@${'b'.repeat(64)}.fr`,
    `a@${Array.from({ length: 60 }, () => 'abcd').join('.')}.fr`,
  ])('refuses %s', (email) => expect(isDeliverableSyntax(email)).toBe(false))
})

describe('flags', () => {
  it('role addresses vs personal ones', () => {
    for (const email of ['contact@x.fr', 'info@x.fr', 'accueil@x.fr', 'contact2@x.fr', 'info.paris@x.fr', 'noreply@x.fr']) expect(isRoleAddress(email)).toBe(true)
    for (const email of ['jean.dupont@x.fr', 'marie@x.fr', 'boulangerie.martin@orange.fr']) expect(isRoleAddress(email)).toBe(false)
  })

  it('webmail domains vs the business own', () => {
    expect(isWebmailDomain('orange.fr')).toBe(true)
    expect(isWebmailDomain('Gmail.com')).toBe(true)
    expect(isWebmailDomain('boulangerie-martin.fr')).toBe(false)
  })

  it('disposable domains come from the maintained list, subdomains included', () => {
    expect(isDisposableDomain('yopmail.com')).toBe(true)
    expect(isDisposableDomain('mailinator.com')).toBe(true)
    expect(isDisposableDomain('boulangerie-martin.fr')).toBe(false)
    expect(isDisposableDomain('gmail.com')).toBe(false)
  })
})

describe('decideEmailStatus', () => {
  const base = { syntax: true, disposable: false, domain: 'mail' as const }
  it.each([
    [{ ...base, syntax: false }, { status: 'invalid', reason: 'syntax' }],
    [{ ...base, disposable: true }, { status: 'invalid', reason: 'disposable' }],
    [{ ...base, domain: 'no_mail' as const }, { status: 'invalid', reason: 'no_mail' }],
    [{ ...base, domain: 'unknown' as const }, { status: 'risky', reason: 'dns_unavailable' }],
    [{ ...base, domain: 'unverifiable' as const }, { status: 'unverified', reason: 'dns_unusable' }],
    [base, { status: 'valid' }],
    [{ ...base, mailbox: 'accepted' as const }, { status: 'valid' }],
    [{ ...base, mailbox: 'catch_all' as const }, { status: 'risky', reason: 'catch_all' }],
    [{ ...base, mailbox: 'rejected' as const }, { status: 'invalid', reason: 'mailbox_refused' }],
    [{ ...base, mailbox: 'unknown' as const }, { status: 'risky', reason: 'smtp_unavailable' }],
  ])('%j → %j', (facts, expected) => expect(decideEmailStatus(facts)).toEqual(expected))

  it('a check carries the flags, and the file cell lists every address', () => {
    const check = emailCheck('contact@orange.fr', base)
    expect(check).toEqual({ status: 'valid', role: true, webmail: true })
    const sources = { 'contact@orange.fr': { check }, 'jean@x.fr': { check: { status: 'risky', reason: 'catch_all', role: false, webmail: false } }, 'old@x.fr': {} }
    expect(formatEmailChecks(['contact@orange.fr', 'jean@x.fr', 'old@x.fr'], sources, 'en')).toBe(
      'contact@orange.fr: valid, role, webmail; jean@x.fr: risky (catch-all domain), personal',
    )
    // A French file reads French words, never the stored codes.
    expect(formatEmailChecks(['contact@orange.fr', 'jean@x.fr'], sources, 'fr')).toBe(
      'contact@orange.fr: valide, générique, webmail; jean@x.fr: à risque (domaine qui accepte tout), nominative',
    )
    expect(formatEmailChecks(['old@x.fr'], sources, 'en')).toBeNull()
    // DNS unusable (it denied the canary too): labelled, in both languages, never as valid.
    const unverified = { 'info@x.fr': { check: emailCheck('info@x.fr', { ...base, domain: 'unverifiable' }) } }
    expect(formatEmailChecks(['info@x.fr'], unverified, 'en')).toBe('info@x.fr: unverified (DNS unusable, verification unavailable), role')
    expect(formatEmailChecks(['info@x.fr'], unverified, 'fr')).toBe('info@x.fr: non vérifiée (DNS inutilisable, vérification impossible), générique')
  })
})

describe('validEmailsOnly (download option "valid only")', () => {
  it('keeps valid addresses, leaves risky, invalid and unverified ones out', () => {
    const email_sources = { 'a@x.fr': { check: { status: 'valid' } }, 'b@x.fr': { check: { status: 'risky' } }, 'c@x.fr': {}, 'd@x.fr': { check: { status: 'unverified' } } }
    expect(validEmailsOnly({ email: ['a@x.fr', 'b@x.fr', 'c@x.fr', 'd@x.fr'], email_sources }).email).toEqual(['a@x.fr'])
    expect(validEmailsOnly({ email: ['b@x.fr'], email_sources }).email).toBeNull()
    expect(validEmailsOnly({ email: null, name: 'n' })).toEqual({ email: null, name: 'n' })
  })
})

describe('createLruCache', () => {
  it('is bounded and drops the least recently used', () => {
    const cache = createLruCache<number>(2)
    cache.set('a', 1, 60_000)
    cache.set('b', 2, 60_000)
    cache.get('a')
    cache.set('c', 3, 60_000)
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([1, undefined, 3, 2])
    cache.set('d', 4, -1)
    expect(cache.get('d')).toBeUndefined()
  })
})

describe('the demo mail zone (LEADS_SOURCE=demo, no EMAIL_DNS_SERVERS)', () => {
  const { emailVerifier } = createDefaultEnrichers(parseEnv({ LEADS_SOURCE: 'demo' }))

  it('verifies the demo sites emails offline: business domains and the webmails they use take mail', async () => {
    const emails = Array.from({ length: 200 }, (_, i) => demoSite(`boulangerie-${i}-lyon-${i.toString(36)}`).emails).flat()
    expect(emails.length).toBeGreaterThan(50)
    const checks = await emailVerifier!.verify(emails)
    const statuses = Object.values(checks).map((check) => check.status)
    expect(statuses.filter((status) => status === 'valid').length).toBe(emails.length)
    expect(Object.values(checks).some((check) => check.webmail)).toBe(true)
  })

  it('is not a blanket valid: unknown domains, decoys and disposable domains are invalid', async () => {
    const checks = await emailVerifier!.verify(['jean@unknown-company.com', 'votre@email.fr', 'x@yopmail.com', 'bad..dots@boulangerie.fr'])
    expect(Object.values(checks).map((check) => check.reason)).toEqual(['no_mail', 'no_mail', 'disposable', 'syntax'])
  })

  it('answers its own canary, whatever EMAIL_DNS_CANARY names: an unknown domain stays invalid, not unverified', async () => {
    const verifier = createDefaultEnrichers(parseEnv({ LEADS_SOURCE: 'demo', EMAIL_DNS_CANARY: 'example.org' })).emailVerifier!
    expect(Object.values(await verifier.verify(['jean@unknown-company.com'])).map((check) => check.status)).toEqual(['invalid'])
  })
})

describe('the email task counts valid and risky addresses only', () => {
  const verifier = createEmailVerifier({
    dns: {
      resolveMx: async (domain) => {
        if (domain === 'gone.example') throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' })
        if (domain === 'flaky.example') throw Object.assign(new Error('servfail'), { code: 'ESERVFAIL' })
        return [{ exchange: `mx.${domain}`, priority: 10 }]
      },
      resolve4: async () => [],
      resolve6: async () => [],
    },
  })
  const enrichers = (emails: string[]): Enrichers => ({
    crawl: async () => ({ status: 'ok', finalUrl: 'https://x.example/', emails, socialMedia: {}, technologies: {}, phones: [], siret: null }),
    lookupRegistry: async () => ({ status: 'not_found' }),
    normalizePhone: () => null,
    emailVerifier: verifier,
  })
  const lead = { name: 'X', phone: null, website: 'https://x.example', city: null, postalCode: null, countryCode: 'FR', sourceEmails: [], sourceSocialMedia: {} }

  it('drops invalid addresses from the value and keeps each check with its source', async () => {
    const result = await enrichLead(lead, new Set(['email']), { enrichers: enrichers(['contact@x.example', 'jean@gone.example', 'marie@flaky.example']), exportCountryCode: 'FR' })
    expect(result.outcomes.email).toBe('success')
    expect(result.values.email).toEqual(['contact@x.example', 'marie@flaky.example'])
    const sources = result.values.email_sources ?? {}
    // Dated with the run, for the re-verification of reused addresses (EMAIL_RECHECK_DAYS).
    const checkedAt = sources['contact@x.example']?.found_at
    expect(sources['contact@x.example']?.check).toEqual({ status: 'valid', role: true, webmail: false, checked_at: checkedAt })
    expect(sources['marie@flaky.example']?.check).toEqual({ status: 'risky', reason: 'dns_unavailable', role: false, webmail: false, checked_at: checkedAt })
    expect(Date.parse(checkedAt ?? '')).toBeGreaterThan(Date.now() - 60_000)
  })

  it('only invalid addresses: not found, nothing to pay', async () => {
    const result = await enrichLead(lead, new Set(['email']), { enrichers: enrichers(['jean@gone.example', 'x@yopmail.com']), exportCountryCode: 'FR' })
    expect(result.outcomes.email).toBe('not_found')
    expect(result.values.email).toBeUndefined()
  })

  it('without a verifier every address is kept unverified', async () => {
    expect(await verifyFoundEmails(undefined, ['a@gone.example'])).toEqual({ kept: ['a@gone.example'], checks: {} })
  })
})
