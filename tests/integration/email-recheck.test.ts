// Reused emails are verified again once their check is older than EMAIL_RECHECK_DAYS (README "Email verification"):
// real database and pipeline, the real verifier asking a local DNS server (dns2 on loopback) whose zone changes
// between the day an address was found and the day it is reused.
import { randomUUID } from 'node:crypto'
import dns2 from 'dns2'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import type { Business, LeadSource } from '#app/.server/sources/types.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'

const { Packet } = dns2
const DAY_MS = 86_400_000

/** Domains taking mail today (gmail.com: the canary, so the NXDOMAIN answers are believed); any other is NXDOMAIN. */
const MAIL_DOMAINS = new Set(['alive.test', 'gmail.com'])
const queries: string[] = []
let dnsServer: ReturnType<typeof dns2.createServer>
/** A lying resolver: NXDOMAIN for every name, the canary included (a sandbox, a broken corporate DNS). */
let lyingServer: ReturnType<typeof dns2.createServer>
let admin: pg.Pool
let engine: Enrichers
let lyingEngine: Enrichers

function business(placeId: string, email: string[] = []): Business {
  return {
    source: 'osm',
    placeId,
    name: `Boulangerie ${placeId.slice(-4)}`,
    address: null,
    fullAddressArray: [],
    city: 'Lyon',
    postalCode: '69001',
    countryCode: 'FR',
    latitude: null,
    longitude: null,
    businessTypes: ['bakery'],
    website: null,
    phone: null,
    email,
    rating: null,
    reviewCount: null,
    googleMapsUrl: null,
    openingHours: null,
    operationalState: null,
    socialMedia: {},
  }
}

/** The businesses, each with the addresses the source gives (verified as found: no website, no crawl). */
function sourceOf(placeIds: string[], emails: Record<string, string[]> = {}): LeadSource {
  return {
    name: 'osm',
    async *search() {
      for (const placeId of placeIds) yield business(placeId, emails[placeId])
    },
  }
}

const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString()

/** What an earlier export stored for the business: the addresses, found (and checked) `checkedDaysAgo` days ago. */
async function storeEmails(placeId: string, emails: string[], checkedDaysAgo: number) {
  const found = daysAgo(checkedDaysAgo)
  const sources = Object.fromEntries(emails.map((email) => [email, { page: null, found_at: found, check: { status: 'valid', role: false, webmail: false, checked_at: found } }]))
  await admin.query(`insert into public.enrichment_results (source, place_id, task, value, found_at) values ('osm', $1, 'email', $2, $3)`, [
    placeId,
    { email: emails, email_sources: sources },
    found,
  ])
}

const createUser = (credits: number) => createUserWithCredits(admin, credits)

async function insertExport(userId: string): Promise<string> {
  const { rows } = await admin.query(
    `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, city, business_types)
     values ($1, 'recheck', 'processing', 'pending', 'pending', $2, $3, 'France', 'Lyon', '{boulangerie}') returning id`,
    [userId, { sector: 'boulangerie', country: 'France', countryCode: 'FR', city: 'Lyon', lang: 'fr' }, { email: true }],
  )
  return rows[0].id
}

/** Per business of the export: its email status, the delivered addresses and their checks, and what it was charged. */
async function outcomesOf(exportId: string) {
  const { rows } = await admin.query<{ place_id: string; status: string; email: string[] | null; sources: Record<string, { check?: { status: string; reason?: string; checked_at?: string } }>; charged: number }>(
    `select l.place_id, el.email_status as status, l.email, l.email_sources as sources,
            (select coalesce(-sum(c.delta), 0)::int from public.credit_ledger c where c.export_id = el.export_id and c.lead_id = l.id) as charged
       from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1`,
    [exportId],
  )
  return Object.fromEntries(rows.map((row) => [row.place_id, row]))
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  dnsServer = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request)
      const [question] = request.questions
      const name = (question?.name ?? '').toLowerCase()
      queries.push(name)
      if (!MAIL_DOMAINS.has(name)) response.header.rcode = Packet.RCODE.NXDOMAIN
      else if (question?.type === Packet.TYPE.MX) response.answers.push({ name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, exchange: `mx.${name}`, priority: 10 } as never)
      void send(response)
    },
  })
  const addresses = await dnsServer.listen({ udp: { port: 0, address: '127.0.0.1' } })
  engine = createDefaultEnrichers(parseEnv({ EMAIL_DNS_SERVERS: `127.0.0.1:${addresses.udp?.port}`, EMAIL_DNS_TIMEOUT_MS: '1000' }))
  // The crawler is never needed: every business below has a stored email result and no website.
  engine = { ...engine, crawl: () => Promise.reject(new Error('no crawl expected')) }

  lyingServer = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request)
      response.header.rcode = Packet.RCODE.NXDOMAIN
      void send(response)
    },
  })
  const lying = await lyingServer.listen({ udp: { port: 0, address: '127.0.0.1' } })
  const lyingEnrichers = createDefaultEnrichers(parseEnv({ EMAIL_DNS_SERVERS: `127.0.0.1:${lying.udp?.port}`, EMAIL_DNS_TIMEOUT_MS: '1000' }))
  lyingEngine = { ...lyingEnrichers, crawl: () => Promise.reject(new Error('no crawl expected')) }
})

afterAll(async () => {
  await engine?.close?.()
  await dnsServer?.close()
  await lyingEngine?.close?.()
  await lyingServer?.close()
  await closeDb()
  await admin?.end()
})

describe('a stored email result reused by another export', () => {
  it('verifies stale addresses again: now invalid ones are dropped (none left: not found, not charged); fresh ones are not asked again', async () => {
    const token = randomUUID()
    const [mixed, gone, fresh, paid] = ['mixed', 'gone', 'fresh', 'paid'].map((name) => `${token}:${name}`) as [string, string, string, string]
    // Found 40 days ago, when both domains took mail; lapsed.test has lapsed since.
    await storeEmails(mixed, ['jean@alive.test', 'old@lapsed.test'], 40)
    await storeEmails(gone, ['contact@lapsed.test'], 40)
    // Checked 5 days ago: delivered as stored, even though its domain no longer answers today.
    await storeEmails(fresh, ['info@fresh-lapsed.test'], 5)
    // Stale and lapsed, and already paid for by this user: still not delivered, and still free.
    await storeEmails(paid, ['team@lapsed.test'], 40)
    const userId = await createUser(100)
    await admin.query(`insert into public.enrichment_purchases (user_id, source, place_id, task, paid_at) values ($1, 'osm', $2, 'email', now() - interval '10 days')`, [userId, paid])

    const exportId = await insertExport(userId)
    queries.length = 0
    const result = await processExport(exportId, { enrichers: engine, source: sourceOf([mixed, gone, fresh, paid]), maxLeads: 10, concurrency: 2, reuseDays: 90, emailRecheckDays: 30 })
    expect(result).toMatchObject({ outcome: 'completed', charged: 2 })

    const outcomes = await outcomesOf(exportId)
    expect(outcomes[mixed]).toMatchObject({ status: 'success', email: ['jean@alive.test'], charged: 1 })
    expect(Date.parse(outcomes[mixed]!.sources['jean@alive.test']!.check!.checked_at!)).toBeGreaterThan(Date.now() - DAY_MS)
    expect(Object.keys(outcomes[mixed]!.sources)).toEqual(['jean@alive.test'])
    expect(outcomes[gone]).toMatchObject({ status: 'not_found', charged: 0 })
    expect(outcomes[fresh]).toMatchObject({ status: 'success', email: ['info@fresh-lapsed.test'], charged: 1 })
    expect(outcomes[paid]).toMatchObject({ status: 'not_found', charged: 0 })
    expect(queries.filter((name) => name === 'fresh-lapsed.test')).toEqual([])
    expect(queries).toContain('lapsed.test')

    // The store keeps what the check found: the surviving address with its new check, no result where none is left.
    const { rows: stored } = await admin.query<{ place_id: string; value: { email: string[] } }>(
      `select place_id, value from public.enrichment_results where source = 'osm' and place_id = any($1) and task = 'email'`,
      [[mixed, gone, fresh, paid]],
    )
    expect(Object.fromEntries(stored.map((row) => [row.place_id, row.value.email]))).toEqual({ [mixed]: ['jean@alive.test'], [fresh]: ['info@fresh-lapsed.test'] })

    // balance = sum of the ledger, and the export's credits used = its debits.
    const { rows } = await admin.query(
      `select (select coalesce(sum(delta), 0)::int from public.credit_ledger where user_id = $1) as ledger,
              (select remaining_credits from public.user_credits where user_id = $1) as remaining,
              (select total_credits_used from public.exports where id = $2) as used`,
      [userId, exportId],
    )
    expect(rows[0]).toEqual({ ledger: 98, remaining: 98, used: 2 })
  })
})

describe('a lying DNS (every name NXDOMAIN, the canary too)', () => {
  it('delivers the addresses as unverified, charges them like risky ones, marks the export; a stale reused address is kept, not dropped', async () => {
    const token = randomUUID()
    const [found, reused] = [`${token}:found`, `${token}:reused`]
    // Found 40 days ago and valid then: verified again today, through the lying resolver.
    await storeEmails(reused, ['jean@alive.test'], 40)
    const userId = await createUser(100)
    const exportId = await insertExport(userId)
    const source = sourceOf([found, reused], { [found]: ['contact@boulangerie-lyon.test'] })
    const result = await processExport(exportId, { enrichers: lyingEngine, source, maxLeads: 10, concurrency: 2, reuseDays: 90, emailRecheckDays: 30 })
    expect(result).toMatchObject({ outcome: 'completed', charged: 2 })

    const outcomes = await outcomesOf(exportId)
    // Found on the business's own site (here: given by the source) but not verifiable: delivered and charged as risky is.
    expect(outcomes[found]).toMatchObject({ status: 'success', email: ['contact@boulangerie-lyon.test'], charged: 1 })
    expect(outcomes[found]!.sources['contact@boulangerie-lyon.test']!.check).toMatchObject({ status: 'unverified', reason: 'dns_unusable' })
    expect(outcomes[reused]).toMatchObject({ status: 'success', email: ['jean@alive.test'], charged: 1 })
    const recheck = outcomes[reused]!.sources['jean@alive.test']!.check!
    expect(recheck).toMatchObject({ status: 'unverified', reason: 'dns_unusable' })
    // Not verified today: it keeps its old date, so the next export verifies it again.
    expect(Date.parse(recheck.checked_at!)).toBeLessThan(Date.now() - 30 * DAY_MS)

    const { rows } = await admin.query(`select email_verification_unavailable as flagged, total_credits_used as used from public.exports where id = $1`, [exportId])
    expect(rows[0]).toEqual({ flagged: true, used: 2 })
  })

  it('a working DNS leaves the export unmarked', async () => {
    const token = randomUUID()
    const userId = await createUser(100)
    const exportId = await insertExport(userId)
    const source = sourceOf([`${token}:ok`, `${token}:gone`], { [`${token}:ok`]: ['jean@alive.test'], [`${token}:gone`]: ['x@lapsed.test'] })
    await processExport(exportId, { enrichers: engine, source, maxLeads: 10, concurrency: 2, reuseDays: 90, emailRecheckDays: 30 })
    const outcomes = await outcomesOf(exportId)
    expect(outcomes[`${token}:gone`]).toMatchObject({ status: 'not_found', charged: 0 })
    const { rows } = await admin.query(`select email_verification_unavailable as flagged from public.exports where id = $1`, [exportId])
    expect(rows[0]).toEqual({ flagged: false })
  })
})
