// "Enrich your own list" (issue 31) through the real commands and processor: real database, demo map source, demo
// websites and demo registry. A file of Brest's bakeries — a third by SIRET, a third by website, a third by name and
// postcode, plus rows nothing can match, a repeated row, an unusable one and a formula-looking cell — is uploaded in
// Windows-1252 with semicolons, mapped, sampled, launched and downloaded: the user's columns come back first and
// intact, every usable row is there, unmatched rows say "not found" and cost nothing, the ledger holds one credit per
// success, and the list is launched once.
import { randomUUID } from 'node:crypto'
import ExcelJS from 'exceljs'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, closeDb } from '#app/.server/db.ts'
import { addDncEntries } from '#app/.server/do-not-contact/store.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { openExportDownload } from '#app/.server/exports/download.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { addEnrichment } from '#app/.server/exports/service.ts'
import { confirmListMapping, launchList, uploadList } from '#app/.server/lists/commands.ts'
import { readList } from '#app/.server/lists/store.ts'
import { upsertAnnouncements } from '#app/.server/registry-events/store.ts'
import { NO_FILTERS } from '#app/domain/search-filters.ts'
import { deleteStaleLists } from '#app/.server/lists/retention.ts'
import { resolveCriteria, searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import type { Business, LeadSource } from '#app/.server/sources/types.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'
import { parseDncEntry } from '#app/domain/do-not-contact.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import { guessColumnKinds } from '#app/domain/list-columns.ts'
import { estimateMatches } from '#app/domain/list-match.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'
import { startDemoServices, type DemoServices } from '#tests/support/demo-services.ts'

let admin: pg.Pool
let demo: DemoServices
let enrichers: Enrichers
let source: LeadSource
const bakeries: Array<Business & { siret: string }> = []
/** Names the demo registry has no company for (about one in ten: server/demo/registry.ts) and the map does not know. */
const unknownNames: string[] = []

const OPTIONS = { ...NO_ENRICHMENT, phone: true, email: true, admin_fr_info: true }
const HEADERS = ['Raison sociale', 'SIRET', 'Site web', 'Code postal', 'Ville', 'Notes internes']

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  demo = await startDemoServices({ latencyMs: 1 })
  enrichers = createDefaultEnrichers(demo.env)
  source = createDemoSource({ websitesBaseUrl: demo.sites.url })
  const criteria = resolveCriteria({ sector: 'bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' })
  if (!criteria.ok) throw new Error('Brest does not resolve')
  const found: Business[] = []
  for await (const business of source.search(searchParamsOf(criteria.criteria, 'fr'), resolveCategory('bakery', 'fr'), { limit: 60 })) found.push(business)
  // Each bakery's SIRET as the registry knows it, registered as a bakery (what a user's CRM export would hold).
  const nafCodes = resolveCategory('bakery', 'fr')!.naf
  for (const business of found) {
    if (!business.website || !business.postalCode) continue
    const match = await enrichers.lookupRegistry({ name: business.name, postalCode: business.postalCode, city: business.city, nafCodes }, {})
    const siret = match.status === 'success' ? (match.info.results as Array<{ siret?: string }>)[0]?.siret : undefined
    if (siret) bakeries.push({ ...business, siret })
    if (bakeries.length === 24) break
  }
  for (let n = 1; unknownNames.length < 2 && n < 200; n++) {
    const name = `Zéphyr Quantique ${n}`
    if ((await enrichers.lookupRegistry({ name, postalCode: '29200', city: 'Brest' }, {})).status === 'not_found') unknownNames.push(name)
  }
})

afterAll(async () => {
  await enrichers?.close?.()
  await demo?.stop()
  await closeDb()
  await admin?.end()
})

async function createUser(credits = 10_000): Promise<SessionUser> {
  const id = await createUserWithCredits(admin, credits)
  return personalSession(id, `${id}@example.test`)
}

/** The trade-show file: 8 rows by SIRET, 8 by website, 8 by name + postcode, 2 unknown, a repeat, an unusable row. */
function tradeShowRows(): string[][] {
  const rows: string[][] = []
  bakeries.forEach((bakery, i) => {
    const note = i === 0 ? '=HYPERLINK("http://evil.test","clic")' : `Stand ${i + 1} — vu au salon`
    if (i < 8) rows.push(['', bakery.siret.replace(/(\d{3})(\d{3})(\d{3})(\d{5})/, '$1 $2 $3 $4'), '', '', '', note])
    else if (i < 16) rows.push([bakery.name, '', bakery.website!, '', '', note])
    else rows.push([bakery.name, '', '', bakery.postalCode!, bakery.city ?? 'Brest', note])
  })
  for (const name of unknownNames) rows.push([name, '', '', '29200', 'Brest', 'inconnue'])
  rows.push(rows[17]!.map((cell, c) => (c === 5 ? 'le même, noté deux fois' : cell)))
  rows.push(['Boulangerie sans adresse', '', '', '', '', 'pas de lieu'])
  return rows
}

function csvWindows1252(headers: string[], rows: string[][]): Uint8Array {
  const quote = (cell: string) => (/[;"\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)
  const text = [headers, ...rows].map((row) => row.map(quote).join(';')).join('\r\n')
  // Windows-1252 is Latin-1 for these characters, except the dash.
  return Uint8Array.from([...text].map((ch) => (ch === '—' ? 0x97 : ch.charCodeAt(0) <= 0xff ? ch.charCodeAt(0) : 0x3f)))
}

async function download(user: SessionUser, exportId: string): Promise<string[][]> {
  const opened = await openExportDownload({ claims: user.claims, exportId, format: 'xlsx', lang: 'fr' })
  const bytes = Buffer.from(await new Response(opened!.body).arrayBuffer())
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(bytes as unknown as ArrayBuffer)
  const rows: string[][] = []
  book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((value) => (value === null || value === undefined ? '' : String(value)))))
  return rows
}

describe('a list from a trade show', () => {
  let user: SessionUser
  let listId = ''
  let exportId = ''

  it('uploads a Windows-1252 CSV with semicolons, guesses its columns and matches every row of a small file', async () => {
    expect([bakeries.length, unknownNames.length]).toEqual([24, 2])
    user = await createUser()
    const uploaded = await uploadList({ user, fileName: 'salon-2026.csv', bytes: csvWindows1252(HEADERS, tradeShowRows()) })
    if (!uploaded.ok) throw new Error(`upload refused: ${uploaded.code}`)
    listId = uploaded.listId
    expect(uploaded.parsed.encoding).toBe('windows-1252')
    expect(uploaded.parsed.headers).toEqual(HEADERS)
    const columns = guessColumnKinds(uploaded.parsed.headers, uploaded.parsed.rows)
    expect(columns).toEqual(['name', 'siret', 'website', 'postal_code', 'city', 'ignore'])

    const confirmed = await confirmListMapping({ user, listId, columns, lang: 'fr', deps: { enrichers, source } })
    if (!confirmed.ok) throw new Error(`mapping refused: ${confirmed.code}`)
    // The repeat is left out and said; the row without a place is listed with why.
    expect(confirmed.reading.duplicates).toHaveLength(1)
    expect(confirmed.reading.unusable.map((row) => row.problem.code)).toEqual(['name_without_place'])
    const sample = confirmed.list.sample!
    expect(sample.exact).toBe(true)
    expect(sample.rowsByKind).toEqual({ siret: 8, siren: 0, domain: 8, name: 10 })
    expect(sample.byKind.siret.matched).toBe(8)
    expect(sample.byKind.domain.matched).toBe(8)
    // Name + postcode: the 8 bakeries, never the two invented names.
    expect(sample.byKind.name.matched).toBe(8)
    const estimate = estimateMatches(sample)
    expect([estimate.matched, estimate.usable, estimate.newBusinesses]).toEqual([24, 26, 24])
  })

  it('launches once as an export whose leads keep their rows; unmatched rows cost nothing', async () => {
    const key = randomUUID()
    const launched = await launchList({ user, listId, name: 'Salon 2026', enrichmentOptions: OPTIONS, idempotencyKey: key, lang: 'fr' })
    if (!launched.ok) throw new Error(`launch refused: ${launched.code}`)
    exportId = launched.exportId
    // The same key replays; another key finds the list taken.
    expect(await launchList({ user, listId, name: 'Salon 2026', enrichmentOptions: OPTIONS, idempotencyKey: key, lang: 'fr' })).toEqual({ ok: true, exportId, duplicate: true })
    expect(await launchList({ user, listId, name: 'Salon 2026', enrichmentOptions: OPTIONS, idempotencyKey: randomUUID(), lang: 'fr' })).toEqual({ ok: false, code: 'already_launched' })

    const result = await processExport(exportId, { enrichers, source, concurrency: 4 })
    expect(result.outcome).toBe('completed')
    const { rows } = await admin.query<{ list_match: { kind: string; status: string; confidence: number | null }; list_cells: string[]; phone_status: string; email_status: string; admin_fr_info_status: string; website: string | null }>(
      `select el.list_match, el.list_cells, el.phone_status, el.email_status, el.admin_fr_info_status, l.website
         from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1 order by el.position`,
      [exportId],
    )
    expect(rows).toHaveLength(26)
    expect(rows.map((row) => row.list_match.status).filter((status) => status === 'not_found')).toHaveLength(2)
    const unmatched = rows.filter((row) => row.list_match.status === 'not_found')
    expect(unmatched.every((row) => [row.phone_status, row.email_status, row.admin_fr_info_status].every((status) => status === 'not_found'))).toBe(true)
    // SIRET rows carry the registry's confidence (the very establishment): the SIREN is added free.
    const bySiret = rows.filter((row) => row.list_match.kind === 'siret')
    expect(bySiret.every((row) => row.list_match.status === 'matched' && row.admin_fr_info_status === 'success' && (row.list_match.confidence ?? 0) >= 0.9)).toBe(true)
    // Found on the map: the SIRET rows get the bakery's site, from which emails and phones are read.
    expect(bySiret.filter((row) => row.website !== null).length).toBeGreaterThanOrEqual(6)
    expect(rows.filter((row) => row.email_status === 'success').length).toBeGreaterThan(10)

    const { rows: money } = await admin.query<{ used: number; charged: number; successes: number }>(
      `select e.total_credits_used as used,
              (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = e.id) as charged,
              (select count(*) filter (where phone_status = 'success') + count(*) filter (where email_status = 'success')
                      -- The registry data a match brought is free; a site's legal notice read in the registry is not.
                      + count(*) filter (where admin_fr_info_status = 'success' and list_match ->> 'kind' = 'domain')
                 from public.export_leads where export_id = e.id)::int as successes
         from public.exports e where e.id = $1`,
      [exportId],
    )
    expect(money[0]!.charged).toBe(money[0]!.successes)
    expect(money[0]!.used).toBe(money[0]!.charged)
    expect((await readList(user, listId))?.exportId).toBe(exportId)
  })

  it('an enrichment added later leaves the rows nothing matched free, and the sites the rows gave uncharged', async () => {
    const added = await addEnrichment({ user, exportId, options: ['website', 'social'] })
    if (!added.ok) throw new Error(`add enrichment refused: ${added.code}`)
    expect((await processExport(exportId, { enrichers, source, concurrency: 4 })).outcome).toBe('completed')
    const { rows } = await admin.query<{ kind: string; status: string; website_status: string; social_media_status: string }>(
      `select list_match ->> 'kind' as kind, list_match ->> 'status' as status, website_status, social_media_status from public.export_leads where export_id = $1`,
      [exportId],
    )
    expect(rows.filter((row) => row.status === 'not_found').map((row) => [row.website_status, row.social_media_status])).toEqual([['not_found', 'not_found'], ['not_found', 'not_found']])
    expect(rows.filter((row) => row.kind === 'domain').every((row) => row.website_status === 'not_required')).toBe(true)
    const { rows: money } = await admin.query<{ used: number; charged: number }>(
      `select e.total_credits_used as used, (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = e.id) as charged from public.exports e where e.id = $1`,
      [exportId],
    )
    expect(money[0]!.used).toBe(money[0]!.charged)
  })

  it('the file has the user\'s columns first, as uploaded, then the enrichment, then the match', async () => {
    const [header, ...body] = await download(user, exportId)
    expect(header!.slice(0, HEADERS.length)).toEqual(HEADERS)
    expect(header!.slice(-2)).toEqual(['Correspondance', 'Confiance de la correspondance'])
    expect(header).toContain('E-mails')
    expect(body).toHaveLength(26)
    // The formula is text in the file: the same characters behind the quote every file puts before one, never run.
    expect(body[0]![5]).toBe(`'=HYPERLINK("http://evil.test","clic")`)
    expect(body[1]![5]).toBe('Stand 2 — vu au salon')
    const match = header!.indexOf('Correspondance')
    expect(body.filter((row) => row[match] === 'Non trouvé')).toHaveLength(2)
    expect(body.filter((row) => row[match] === 'Trouvé par SIRET')).toHaveLength(8)
  })

  it('a second upload of the same file says which businesses are already yours and what is already paid', async () => {
    const again = await uploadList({ user, fileName: 'salon-2026-bis.csv', bytes: csvWindows1252(HEADERS, tradeShowRows()) })
    if (!again.ok) throw new Error(`upload refused: ${again.code}`)
    const confirmed = await confirmListMapping({ user, listId: again.listId, columns: ['name', 'siret', 'website', 'postal_code', 'city', 'ignore'], lang: 'fr', deps: { enrichers, source } })
    if (!confirmed.ok) throw new Error(`mapping refused: ${confirmed.code}`)
    const { rows } = await admin.query<{ phones: number; emails: number }>(
      `select count(*) filter (where phone_status = 'success')::int as phones, count(*) filter (where email_status = 'success')::int as emails
         from public.export_leads where export_id = $1`,
      [exportId],
    )
    expect(confirmed.list.sample).toMatchObject({ matched: 24, alreadyYours: 24, paidByType: { phone: rows[0]!.phones, email: rows[0]!.emails } })
    expect(estimateMatches(confirmed.list.sample!)).toMatchObject({ matched: 24, newBusinesses: 0, alreadyYours: 24 })
  })

  it('another workspace neither sees nor launches the list', async () => {
    const other = await createUser()
    expect(await readList(other, listId)).toBeUndefined()
    expect(await launchList({ user: other, listId, name: 'x', enrichmentOptions: OPTIONS, idempotencyKey: randomUUID(), lang: 'fr' })).toEqual({ ok: false, code: 'not_found' })
    const { rows } = await admin.query('select count(*)::int as n from public.list_rows where list_id = $1', [listId])
    expect(rows[0].n).toBe(28)
  })
})

describe('an XLSX list and the do-not-contact list', () => {
  it('reads the sheet, and a company on the do-not-contact list is neither matched in the sample nor enriched', async () => {
    const user = await createUser()
    const listed = bakeries[0]!
    expect(await addDncEntries({ ...user }, [parseDncEntry(listed.siret.slice(0, 9))!])).toEqual({ ok: true, added: 1 })
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('Salon')
    sheet.addRow(['Société', 'N° SIRET'])
    for (const bakery of bakeries.slice(0, 4)) sheet.addRow([bakery.name, Number(bakery.siret)])
    const bytes = new Uint8Array(await book.xlsx.writeBuffer())
    const uploaded = await uploadList({ user, fileName: 'salon.xlsx', bytes })
    if (!uploaded.ok) throw new Error(`upload refused: ${uploaded.code}`)
    expect(uploaded.parsed.format).toBe('xlsx')
    const confirmed = await confirmListMapping({ user, listId: uploaded.listId, columns: ['name', 'siret'], lang: 'en', deps: { enrichers, source } })
    if (!confirmed.ok) throw new Error(`mapping refused: ${confirmed.code}`)
    expect(confirmed.list.sample!.matched).toBe(3)
    const launched = await launchList({ user, listId: uploaded.listId, name: 'Salon', enrichmentOptions: OPTIONS, idempotencyKey: randomUUID(), lang: 'en' })
    if (!launched.ok) throw new Error(`launch refused: ${launched.code}`)
    expect((await processExport(launched.exportId, { enrichers, source, concurrency: 2 })).outcome).toBe('completed')
    const { rows } = await admin.query<{ lead_count: number; excluded: Record<string, number> }>('select lead_count, excluded from public.exports where id = $1', [launched.exportId])
    expect(rows[0]).toEqual({ lead_count: 3, excluded: { dnc_siren: 1 } })
  })

  it('with the risk shield ticked, a company of the list in liquidation (BODACC) is left out before anything is charged, and counted', async () => {
    const user = await createUser()
    const failing = bakeries[5]!
    const siren = failing.siret.slice(0, 9)
    const announcement = { id: `A2026${String(Date.now()).slice(-8)}`, sirens: [siren], publishedOn: '2026-10-02', family: 'collective', kind: 'annonce' as const, correctsId: null,
      judgment: { famille: "Jugement d'ouverture", nature: "Jugement d'ouverture de liquidation judiciaire", complement: '', date: '2026-09-28' },
      radiation: null, createdOn: null, naturalPerson: false, tribunal: 'TRIBUNAL DE COMMERCE DE BREST', url: 'https://www.bodacc.fr/pages/annonces-commerciales-detail/?q.id=id:A1' }
    await upsertAnnouncements(adminDb(), [announcement])
    const table = [['Société', 'SIRET'], ...bakeries.slice(4, 7).map((bakery) => [bakery.name, bakery.siret])]
    const uploaded = await uploadList({ user, fileName: 'salon.csv', bytes: new TextEncoder().encode(table.map((row) => row.join(';')).join('\n')) })
    if (!uploaded.ok) throw new Error(`upload refused: ${uploaded.code}`)
    const confirmed = await confirmListMapping({ user, listId: uploaded.listId, columns: ['name', 'siret'], lang: 'fr', deps: { enrichers, source } })
    if (!confirmed.ok) throw new Error(`mapping refused: ${confirmed.code}`)
    const launched = await launchList({ user, listId: uploaded.listId, name: 'Salon', enrichmentOptions: OPTIONS, idempotencyKey: randomUUID(), lang: 'fr', filters: { ...NO_FILTERS, excludeInsolvent: true } })
    if (!launched.ok) throw new Error(`launch refused: ${launched.code}`)
    expect((await processExport(launched.exportId, { enrichers, source, concurrency: 2 })).outcome).toBe('completed')
    const { rows } = await admin.query<{ lead_count: number; excluded: Record<string, number>; debits: number }>(
      `select lead_count, excluded, (select count(*)::int from public.credit_ledger c join public.leads l on l.id = c.lead_id where c.export_id = e.id and l.admin_fr_info -> 'results' -> 0 ->> 'siret' = $2) as debits
         from public.exports e where id = $1`,
      [launched.exportId, failing.siret],
    )
    expect(rows[0]).toEqual({ lead_count: 2, excluded: { risk_insolvency: 1 }, debits: 0 })
  })

  it('refuses a binary file whole: nothing is stored', async () => {
    const user = await createUser()
    const refused = await uploadList({ user, fileName: 'photo.png', bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) })
    expect(refused).toMatchObject({ ok: false, code: 'file_refused', refusal: { refused: 'binary' } })
    const { rows } = await admin.query('select count(*)::int as n from public.lists where user_id = $1', [user.workspace.id])
    expect(rows[0].n).toBe(0)
  })
})

describe('the list budget', () => {
  it('counts each confirmed mapping (its sample asks the registry) against the member\'s list budget', async () => {
    const user = await createUser()
    const uploaded = await uploadList({ user, fileName: 'un.csv', bytes: new TextEncoder().encode(`SIRET\n${bakeries[0]!.siret}\n`) })
    if (!uploaded.ok) throw new Error('upload refused')
    const confirm = () => confirmListMapping({ user, listId: uploaded.listId, columns: ['siret'], lang: 'fr', deps: { enrichers, source } })
    for (let i = 0; i < 30; i++) expect((await confirm()).ok).toBe(true)
    expect(await confirm()).toMatchObject({ ok: false, code: 'rate_limited', refusal: { ok: false } })
    // The API's mapping matches no sample: it asks nothing of that budget.
    expect((await confirmListMapping({ user, listId: uploaded.listId, columns: ['siret'], lang: 'fr', sample: false })).ok).toBe(true)
  })
})

describe('retention', () => {
  it('removes lists no export took after 30 days, with their rows, and keeps a launched one', async () => {
    const user = await createUser()
    const stale = await uploadList({ user, fileName: 'vieux.csv', bytes: new TextEncoder().encode('Site web\nexemple.fr\n') })
    const fresh = await uploadList({ user, fileName: 'neuf.csv', bytes: new TextEncoder().encode('Site web\nexemple.fr\n') })
    if (!stale.ok || !fresh.ok) throw new Error('upload refused')
    await admin.query(`update public.lists set created_at = now() - interval '31 days' where id = $1`, [stale.listId])
    // The trade-show list, launched above, is older than that too: its export holds it.
    const launched = await admin.query<{ id: string }>(`update public.lists set created_at = now() - interval '31 days' where file_name = 'salon-2026.csv' and export_id is not null returning id`)
    expect(launched.rowCount).toBeGreaterThanOrEqual(1)
    expect(await deleteStaleLists()).toBeGreaterThanOrEqual(1)
    const { rows } = await admin.query<{ id: string }>('select id from public.lists where id = any($1::uuid[])', [[stale.listId, fresh.listId]])
    expect(rows.map((row) => row.id)).toEqual([fresh.listId])
    expect((await admin.query('select 1 from public.list_rows where list_id = $1', [stale.listId])).rowCount).toBe(0)
    expect((await admin.query('select 1 from public.lists where id = any($1::uuid[])', [launched.rows.map((row) => row.id)])).rowCount).toBe(launched.rowCount)
  })
})
