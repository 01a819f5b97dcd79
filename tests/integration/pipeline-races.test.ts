// The export processor under concurrency, crashes and bad data, driven directly (no queue): exports are inserted
// without a job, so the queue consumer of pipeline-exports.test.ts never touches them. Real database, real
// enrichment engine, real demo websites and demo registry.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import type { Env } from '#app/.server/env.server.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import type { LeadGateFactory } from '#app/.server/exports/lead-gates.ts'
import { processExport, type ProcessResult } from '#app/.server/exports/processor.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import { LeadSourceError, type Business, type LeadSource } from '#app/.server/sources/types.ts'
import type { DemoWebsites } from '#server/demo/websites.ts'
import { type DemoServices, startDemoServices } from '#tests/support/demo-services.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'

const LEADS = 30
const TASK_COLUMNS = ['phone', 'website', 'email', 'technologies', 'social_media', 'admin_fr_info'].map((t) => `${t}_status`)
const ALL = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }

let admin: pg.Pool
let sites: DemoWebsites
let demoServices: DemoServices | undefined
let env: Env
let source: LeadSource
const openEnrichers: Enrichers[] = []

function enrichers(): Enrichers {
  const created = createDefaultEnrichers(env)
  openEnrichers.push(created)
  return created
}

function sum(expr: (column: string) => string): string {
  return TASK_COLUMNS.map((column) => `(${expr(column)})::int`).join(' + ')
}

const createUser = (credits: number) => createUserWithCredits(admin, credits)

/** An export as createExport leaves it, without its job. */
async function insertExport(userId: string, options: object = ALL): Promise<string> {
  const { rows } = await admin.query(
    `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, region, department, city, business_types)
     values ($1, 'race', 'processing', 'pending', 'pending', $2, $3, 'France', 'Auvergne-Rhône-Alpes', 'Rhône', 'Lyon', '{boulangerie}') returning id`,
    [userId, { sector: 'boulangerie', country: 'France', countryCode: 'FR', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon', lang: 'fr' }, options],
  )
  return rows[0].id
}

async function state(exportId: string) {
  const { rows } = await admin.query(
    `select e.status, e.can_resume, e.lead_count, e.total_credits_used, e.search_status, e.enrichment_status, e.enrichment_status_details,
            e.progress_percentage::float as progress,
            (select count(*)::int from public.export_leads where export_id = e.id) as links,
            (select count(distinct position)::int from public.export_leads where export_id = e.id) as positions,
            (select coalesce(sum(${sum((c) => `${c} = 'success'`)}), 0)::int from public.export_leads where export_id = e.id) as successes,
            (select coalesce(sum(${sum((c) => `${c} = 'pending'`)}), 0)::int from public.export_leads where export_id = e.id) as pending,
            (select count(*)::int from public.credit_ledger where export_id = e.id) as ledger_rows,
            (select count(distinct idempotency_key)::int from public.credit_ledger where export_id = e.id) as ledger_keys,
            (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = e.id) as charged
       from public.exports e where e.id = $1`,
    [exportId],
  )
  return rows[0]
}

async function expectBalanced(userId: string) {
  const { rows } = await admin.query(
    `select (select coalesce(sum(delta), 0)::int from public.credit_ledger where user_id = $1) as ledger,
            (select remaining_credits from public.user_credits where user_id = $1) as remaining`,
    [userId],
  )
  expect(rows[0].ledger).toBe(rows[0].remaining)
  return rows[0].remaining as number
}

/** Invariants that hold whatever happened: every success charged exactly once, under its own key. */
async function expectConsistent(exportId: string, userId: string) {
  const s = await state(exportId)
  expect(s.total_credits_used).toBe(s.successes)
  expect(s.ledger_rows).toBe(s.successes)
  expect(s.ledger_keys).toBe(s.successes)
  expect(s.charged).toBe(s.successes)
  await expectBalanced(userId)
  return s
}

/** A lead source wrapper: counts, can fail or abort after `n` businesses. */
function wrapSource(inner: LeadSource, hooks: { after?: number; onAfter?: () => void; failWith?: Error }): LeadSource {
  return {
    name: inner.name,
    async *search(params, category, options) {
      let n = 0
      for await (const business of inner.search(params, category, options)) {
        if (hooks.after !== undefined && n === hooks.after) {
          if (hooks.failWith) throw hooks.failWith
          hooks.onAfter?.()
          options.signal?.throwIfAborted()
        }
        n++
        yield business
      }
    },
  }
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  demoServices = await startDemoServices({ latencyMs: 10 })
  ;({ sites, env } = demoServices)
  source = createDemoSource({ websitesBaseUrl: sites.url })
})

afterAll(async () => {
  for (const created of openEnrichers) await created.close?.()
  await demoServices?.stop()
  await closeDb()
  await admin?.end()
})

describe('two workers on one export', () => {
  it('never double-charge: each success is charged once, under a unique key', async () => {
    const userId = await createUser(10_000)
    const exportId = await insertExport(userId)
    const results = await Promise.all(
      [enrichers(), enrichers()].map((e) => processExport(exportId, { enrichers: e, source, maxLeads: LEADS, concurrency: 4, progressIntervalMs: 50 })),
    )
    const outcomes = results.map((r) => r.outcome).sort()
    expect(outcomes.includes('completed')).toBe(true)
    for (const outcome of outcomes) expect(['completed', 'skipped']).toContain(outcome)
    // Both really worked on it, and between them they charged exactly what was recorded.
    for (const r of results) expect(r.enrichedLeads).toBeGreaterThan(0)
    const s = await expectConsistent(exportId, userId)
    expect(s).toMatchObject({ status: 'completed', links: LEADS, positions: LEADS, pending: 0, lead_count: LEADS, progress: 100 })
    expect(results.reduce((total, r) => total + r.charged, 0)).toBe(s.successes)
  })

  it('racing on the last credits: exactly the balance is spent, then interrupted', async () => {
    const userId = await createUser(5)
    const exportId = await insertExport(userId, { email: true, website: true, social: true })
    await Promise.all([enrichers(), enrichers()].map((e) => processExport(exportId, { enrichers: e, source, maxLeads: LEADS, concurrency: 6 })))
    const s = await expectConsistent(exportId, userId)
    expect(s).toMatchObject({ status: 'interrupted', can_resume: true, successes: 5, total_credits_used: 5 })
    expect(s.pending).toBeGreaterThan(0)
    expect(await expectBalanced(userId)).toBe(0)
  })
})

describe('lead gates', () => {
  it('leave businesses out before any task exists: the cap holds on what is kept, nothing left out is charged, and the export counts them by reason', async () => {
    const userId = await createUser(10_000)
    const exportId = await insertExport(userId, { phone: true, email: true })
    const leftOut = new Set<string>()
    const everyThird: LeadGateFactory = async () => ({
      judge: (batch) =>
        new Map(
          batch
            .filter((business) => Number.parseInt(business.placeId.replace(/\D/g, '').slice(-2) || '0', 10) % 3 === 0)
            .map((business) => (leftOut.add(business.placeId), [business, 'test_reason'] as const)),
        ),
    })
    const result = await processExport(exportId, { enrichers: enrichers(), source, maxLeads: LEADS, concurrency: 4, leadGates: [everyThird] })
    expect(result.outcome).toBe('completed')
    const s = await expectConsistent(exportId, userId)
    // The source was asked for more, so the export still holds LEADS businesses, none of them one the gate left out.
    expect(s).toMatchObject({ status: 'completed', links: LEADS, lead_count: LEADS, pending: 0 })
    expect(leftOut.size).toBeGreaterThan(0)
    const { rows } = await admin.query(
      `select e.excluded, (select count(*)::int from public.export_leads el join public.leads l on l.id = el.lead_id
                          where el.export_id = e.id and l.place_id = any($2)) as linked_left_out
         from public.exports e where e.id = $1`,
      [exportId, [...leftOut]],
    )
    expect(rows[0]).toEqual({ excluded: { test_reason: leftOut.size }, linked_left_out: 0 })
  })
})

describe('crashes', () => {
  it('aborted mid-enrichment, then run again: completes, nothing charged twice, no lead lost', async () => {
    const userId = await createUser(10_000)
    const exportId = await insertExport(userId)
    const controller = new AbortController()
    let recorded = 0
    const first = processExport(exportId, {
      enrichers: enrichers(),
      source,
      maxLeads: LEADS,
      concurrency: 4,
      signal: controller.signal,
      onLeadRecorded: () => {
        if (++recorded === 8) controller.abort()
      },
    })
    await expect(first).rejects.toMatchObject({ name: 'AbortError' })
    const midway = await expectConsistent(exportId, userId)
    expect(midway).toMatchObject({ status: 'processing', search_status: 'completed', links: LEADS })
    expect(midway.pending).toBeGreaterThan(0)
    expect(midway.successes).toBeGreaterThan(0)

    const second = await processExport(exportId, { enrichers: enrichers(), source, maxLeads: LEADS, concurrency: 4 })
    expect(second.outcome).toBe('completed')
    const done = await expectConsistent(exportId, userId)
    expect(done).toMatchObject({ status: 'completed', links: LEADS, positions: LEADS, pending: 0, lead_count: LEADS })
    expect(done.successes).toBeGreaterThan(midway.successes)
    expect(second.charged).toBe(done.successes - midway.successes)
  })

  it('aborted during the search, then run again: the search resumes without duplicates', async () => {
    const userId = await createUser(10_000)
    const exportId = await insertExport(userId, { email: true })
    const controller = new AbortController()
    const crashing = wrapSource(source, { after: 17, onAfter: () => controller.abort() })
    await expect(processExport(exportId, { enrichers: enrichers(), source: crashing, maxLeads: LEADS, signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    })
    const midway = await state(exportId)
    expect(midway).toMatchObject({ status: 'processing', search_status: 'processing', successes: 0 })
    expect(midway.links).toBeLessThan(LEADS)

    const result = await processExport(exportId, { enrichers: enrichers(), source, maxLeads: LEADS })
    expect(result.outcome).toBe('completed')
    const done = await expectConsistent(exportId, userId)
    expect(done).toMatchObject({ status: 'completed', search_status: 'completed', links: LEADS, positions: LEADS, lead_count: LEADS, pending: 0 })
    const { rows } = await admin.query('select count(*)::int as n from public.leads where user_id = $1', [userId])
    expect(rows[0].n).toBe(LEADS)
  })
})

describe('bad data and failures', () => {
  it('a search failure marks the export failed (resumable), or is rethrown while retries remain', async () => {
    const userId = await createUser(100)
    const exportId = await insertExport(userId)
    const failing = wrapSource(source, { after: 3, failWith: new LeadSourceError('upstream_error', 'Overpass said no') })
    await expect(processExport(exportId, { enrichers: enrichers(), source: failing, maxLeads: LEADS, finalAttempt: false })).rejects.toBeInstanceOf(LeadSourceError)
    expect(await state(exportId)).toMatchObject({ status: 'processing' })

    const result = await processExport(exportId, { enrichers: enrichers(), source: failing, maxLeads: LEADS })
    expect(result.outcome).toBe('failed')
    const s = await state(exportId)
    expect(s).toMatchObject({ status: 'failed', search_status: 'failed', can_resume: true, successes: 0 })
    expect(s.enrichment_status_details).toMatchObject({ phase: 'search', code: 'upstream_error', error: 'Overpass said no' })
    await expectConsistent(exportId, userId)
  })

  it('an export whose search finds nothing completes with no leads and no charge', async () => {
    const userId = await createUser(100)
    const exportId = await insertExport(userId)
    const empty: LeadSource = { name: 'demo', search: async function* () {} }
    expect((await processExport(exportId, { enrichers: enrichers(), source: empty })).outcome).toBe('completed')
    expect(await expectConsistent(exportId, userId)).toMatchObject({ status: 'completed', lead_count: 0, links: 0, successes: 0, progress: 100 })
  })

  it('odd businesses (duplicates, no website, no postcode, foreign, junk phone) are stored once and enriched without errors', async () => {
    const userId = await createUser(100)
    const exportId = await insertExport(userId)
    const base: Business = {
      source: 'demo',
      placeId: 'odd-1',
      name: '',
      address: null,
      fullAddressArray: [],
      city: null,
      postalCode: null,
      countryCode: null,
      latitude: null,
      longitude: null,
      businessTypes: [],
      website: null,
      phone: 'not a phone',
      email: ['Contact@Example.FR', 'contact@example.fr'],
      rating: null,
      reviewCount: null,
      googleMapsUrl: null,
      openingHours: { weekday_text: ['Mo-Fr 9-18'] },
      operationalState: null,
      socialMedia: { facebook: 'https://www.facebook.com/odd' },
    }
    const odd: LeadSource = {
      name: 'demo',
      search: async function* () {
        yield base
        yield base // duplicate in the stream
        yield { ...base, placeId: 'odd-2', countryCode: 'DE', website: 'http://127.0.0.1:1/nothing-listens-here', phone: '+49 30 1234567' }
        yield { ...base, placeId: 'odd-3', website: 'ftp://example.com/', phone: null }
      },
    }
    const result = await processExport(exportId, { enrichers: enrichers(), source: odd })
    expect(result.outcome).toBe('completed')
    const s = await expectConsistent(exportId, userId)
    expect(s).toMatchObject({ status: 'completed', links: 3, lead_count: 3, pending: 0 })
    const { rows } = await admin.query(
      `select l.place_id, l.name, l.email, l.social_media, l.phone, el.* from public.export_leads el join public.leads l on l.id = el.lead_id
        where el.export_id = $1 order by l.place_id`,
      [exportId],
    )
    expect(rows[0]).toMatchObject({ place_id: 'odd-1', name: 'Unnamed Business', email_status: 'success', email: ['contact@example.fr'], social_media_status: 'success', phone_status: 'not_found', website_status: 'not_found', admin_fr_info_status: 'not_found' })
    // An unreachable site fails (free); a non-French lead gets no registry lookup; a valid foreign phone is found.
    expect(rows[1]).toMatchObject({ place_id: 'odd-2', website_status: 'failed', technologies_status: 'failed', phone_status: 'success', phone: '+49 30 1234567', admin_fr_info_status: 'not_found' })
    expect(rows[2]).toMatchObject({ place_id: 'odd-3', website_status: 'failed', phone_status: 'failed' })
  })

  it('text Postgres refuses (NUL, lone surrogates) from the source or the web is cleaned, not fatal', async () => {
    const userId = await createUser(100)
    const exportId = await insertExport(userId, { email: true, admin_fr_info: true, social: true })
    const poisoned: Business = {
      source: 'demo',
      placeId: 'nul\u0000id',
      name: 'Bad\u0000Name \ud800',
      address: 'rue\u0000',
      fullAddressArray: ['a\u0000'],
      city: 'Lyon',
      postalCode: '69001',
      countryCode: 'FR',
      latitude: null,
      longitude: null,
      businessTypes: ['x\u0000'],
      website: 'https://poisoned.example/',
      phone: null,
      email: [],
      rating: null,
      reviewCount: null,
      googleMapsUrl: null,
      openingHours: { 'k\u0000': 'v\u0000\udc00' },
      operationalState: null,
      socialMedia: {},
    }
    const real = enrichers()
    const hostile: Enrichers = {
      ...real,
      crawl: async () => ({
        status: 'ok',
        finalUrl: 'https://poisoned.example/',
        // A .fr business domain: the demo mail zone (email verification) gives it an MX.
        emails: ['con\u0000tact@poisoned.fr'],
        socialMedia: { facebook: 'https://www.facebook.com/p\u0000' },
        technologies: {},
        phones: [],
        siret: null,
      }),
      lookupRegistry: async () => ({ status: 'success', info: { results: [{ nom_complet: 'BAD\u0000 \ud800CO', 'k\u0000': 1 }] } }),
    }
    const source: LeadSource = { name: 'demo', search: async function* () { yield poisoned } }
    expect((await processExport(exportId, { enrichers: hostile, source })).outcome).toBe('completed')
    expect(await expectConsistent(exportId, userId)).toMatchObject({ status: 'completed', links: 1, successes: 3, pending: 0 })
    const { rows } = await admin.query('select * from public.leads where user_id = $1', [userId])
    expect(rows[0]).toMatchObject({
      place_id: 'nulid',
      name: 'BadName \ufffd',
      email: ['contact@poisoned.fr'],
      social_media: { facebook: 'https://www.facebook.com/p' },
      working_hours: { k: 'v\ufffd' },
      admin_fr_info: { results: [{ nom_complet: 'BAD \ufffdCO', k: 1 }] },
    })
  })
})

describe('stopping', () => {
  it('an export deleted mid-run stops the processor without an error', async () => {
    const userId = await createUser(10_000)
    const exportId = await insertExport(userId)
    let recorded = 0
    const result: ProcessResult = await processExport(exportId, {
      enrichers: enrichers(),
      source,
      maxLeads: LEADS,
      concurrency: 3,
      onLeadRecorded: async () => {
        if (++recorded === 4) await admin.query('delete from public.exports where id = $1', [exportId])
      },
    })
    expect(result.outcome).toBe('deleted')
    expect(result.enrichedLeads).toBeLessThan(LEADS)
    const { rows } = await admin.query('select count(*)::int as n from public.export_leads where export_id = $1', [exportId])
    expect(rows[0].n).toBe(0)
    await expectBalanced(userId)
  })

  it('an export that stops being processing (e.g. failed elsewhere) stops the run', async () => {
    const userId = await createUser(10_000)
    const exportId = await insertExport(userId)
    let recorded = 0
    const result = await processExport(exportId, {
      enrichers: enrichers(),
      source,
      maxLeads: LEADS,
      concurrency: 2,
      progressIntervalMs: 0,
      onLeadRecorded: async () => {
        if (++recorded === 3) await admin.query(`update public.exports set status = 'failed' where id = $1`, [exportId])
      },
    })
    expect(result.outcome).toBe('skipped')
    expect(result.enrichedLeads).toBeLessThan(LEADS)
    await expectConsistent(exportId, userId)
  })

  it('a finished export is skipped by a stale job', async () => {
    const userId = await createUser(100)
    const exportId = await insertExport(userId, { email: true })
    await admin.query(`update public.exports set status = 'completed' where id = $1`, [exportId])
    expect((await processExport(exportId, { enrichers: enrichers(), source })).outcome).toBe('skipped')
    expect((await processExport(randomUUID(), { enrichers: enrichers(), source })).outcome).toBe('deleted')
  })
})
