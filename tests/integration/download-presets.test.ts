// Download presets and provenance against the real embedded Postgres: each preset's file holds exactly its
// columns plus the provenance ones, in CSV (both dialects) and XLSX, with formulas neutralised and data intact;
// the chosen preset is remembered per user, through RLS.
import { randomUUID } from 'node:crypto'
import { parse as parseCsvText } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { adminDb, closeDb, type EnrichmentOptionsJson } from '#app/.server/db.ts'
import { openExportDownload, type DownloadFormat } from '#app/.server/exports/download.ts'
import { readDownloadPreset, rememberDownloadPreset } from '#app/.server/exports/download-preference.ts'
import type { CsvSeparator } from '#app/domain/csv-format.ts'
import { DOWNLOAD_PRESETS, type DownloadPreset } from '#app/domain/download-presets.ts'

const ALL_OPTIONS: EnrichmentOptionsJson = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }
const PROVENANCE_EN = ['Source', 'Source ID', 'Source URL']

/** The exact header row of each preset, for an export with every enrichment, in English. */
const HEADERS_EN: Record<DownloadPreset, string[]> = {
  all: [
    'Name', 'Address', 'City', 'Postal code', 'Country code', 'Phone', 'Website', 'Latitude', 'Longitude', 'Rating', 'Review count',
    'Categories', 'Google Maps URL', 'Opening hours', 'Business status', 'Description',
    'Phone type', 'Other phones', 'Phone enrichment status', 'Website enrichment status', 'Emails', 'Email sources', 'Email status', 'Email enrichment status', 'Technologies', 'Technologies enrichment status',
    'Facebook', 'LinkedIn', 'X (Twitter)', 'Instagram', 'TikTok', 'Social media enrichment status',
    'SIREN', 'SIRET', 'Legal name', 'NAF code', 'Legal category', 'Headcount band', 'Creation date', 'Match confidence',
    'Activity (NAF label)', 'Legal form', 'Headcount', 'Administrative state', 'Head office address', 'Directors', 'Identified by', 'SIREN/SIRET page', 'Risk (BODACC)', 'Risk date', 'Court', 'BODACC announcement', 'Company registry enrichment status',
    ...PROVENANCE_EN,
  ],
  contacts: ['Name', 'Address', 'City', 'Postal code', 'Country code', 'Phone', 'Website', 'Phone type', 'Other phones', 'Emails', 'Email sources', 'Email status', 'Facebook', 'LinkedIn', 'X (Twitter)', 'Instagram', 'TikTok', ...PROVENANCE_EN],
  crm: [
    'Company name', 'Street Address', 'City', 'Postal Code', 'Country/Region', 'Phone Number', 'Website URL', 'Mobile Phone Number', 'Email',
    'Facebook Company Page', 'LinkedIn Company Page', ...PROVENANCE_EN,
  ],
}

const FORMULA_NAME = '=HYPERLINK("http://evil")'
let admin: pg.Pool
let alice: string
let bob: string
const ids = { full: '', emailOnly: '' }

async function createAuthUser(): Promise<string> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  return id
}

async function createExport(userId: string, name: string, enrichmentOptions: EnrichmentOptionsJson): Promise<string> {
  const row = await adminDb().insertInto('exports').values({ user_id: userId, name, status: 'completed', enrichment_options: enrichmentOptions }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

/** Three leads, one per source, in this order: OpenStreetMap (with formula text), Google, demo. */
async function seedLeads(userId: string, exportId: string) {
  const common = { user_id: userId, city: 'Brest', postal_code: '29200', country_code: 'FR', rating: 4.5, latitude: 48.39, longitude: -4.49 }
  const leads = [
    {
      ...common,
      source: 'osm',
      place_id: `node/${Math.floor(Math.random() * 1e9)}`,
      name: FORMULA_NAME,
      full_address: '3 rue de Siam, 29200 Brest',
      phone: '+33 2 98 00 00 00',
      website: 'https://fournil.example',
      email: ['@SUM(1)@fournil.example', 'second@fournil.example'],
      social_media: { facebook: 'https://facebook.com/fournil', linkedin: 'https://linkedin.com/company/fournil' },
    },
    { ...common, source: 'google', place_id: `ChIJ-${randomUUID()}`, name: 'Café du Port', email: ['bonjour@cafe.example'] },
    { ...common, source: 'demo', place_id: `demo-${randomUUID()}`, name: 'Boulangerie Démo' },
  ]
  for (const [position, lead] of leads.entries()) {
    const { id } = await adminDb().insertInto('leads').values(lead).returning('id').executeTakeFirstOrThrow()
    await adminDb().insertInto('export_leads').values({ export_id: exportId, lead_id: id, user_id: userId, position, email_status: 'success' }).execute()
  }
  return leads
}
let seeded: Awaited<ReturnType<typeof seedLeads>>

async function download(format: DownloadFormat, preset: DownloadPreset, options: { lang?: 'en' | 'fr'; separator?: CsvSeparator; exportId?: string } = {}) {
  const opened = await openExportDownload({ claims: { sub: alice }, exportId: options.exportId ?? ids.full, format, preset, lang: options.lang, separator: options.separator })
  if (!opened) throw new Error('export not found')
  return Buffer.from(await new Response(opened.body).arrayBuffer())
}

async function csvRows(preset: DownloadPreset, options: { lang?: 'en' | 'fr'; separator?: CsvSeparator; exportId?: string } = {}): Promise<string[][]> {
  const bytes = await download('csv', preset, options)
  const delimiter = (options.separator ?? (options.lang === 'fr' ? 'semicolon' : 'comma')) === 'semicolon' ? ';' : ','
  return parseCsvText(bytes.subarray(3).toString('utf8'), { delimiter, relax_column_count: true })
}

async function xlsxRows(preset: DownloadPreset): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load((await download('xlsx', preset)) as unknown as ArrayBuffer)
  const rows: unknown[][] = []
  workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)))
  return rows
}

/** One record per lead, header -> cell. */
const records = (rows: unknown[][]) => rows.slice(1).map((row) => Object.fromEntries(rows[0]!.map((header, i) => [String(header), row[i] ?? ''])))

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  alice = await createAuthUser()
  bob = await createAuthUser()
  ids.full = await createExport(alice, 'Boulangeries Brest', ALL_OPTIONS)
  seeded = await seedLeads(alice, ids.full)
  ids.emailOnly = await createExport(alice, 'Cafés Brest', { email: true })
  await seedLeads(alice, ids.emailOnly)
})

afterAll(async () => {
  await closeDb()
  await admin.end()
})

describe('exact columns per preset', () => {
  for (const preset of DOWNLOAD_PRESETS) {
    test(`${preset}: CSV (,), CSV (;) and XLSX have its headers and one row per lead`, async () => {
      const comma = await csvRows(preset, { separator: 'comma' })
      const semicolon = await csvRows(preset, { separator: 'semicolon' })
      const xlsx = await xlsxRows(preset)
      for (const rows of [comma, semicolon, xlsx]) {
        expect(rows[0]).toEqual(HEADERS_EN[preset])
        expect(rows).toHaveLength(1 + seeded.length)
        for (const row of rows.slice(1)) expect(row.length).toBeLessThanOrEqual(HEADERS_EN[preset].length)
      }
    })
  }

  test('French files: French headers, except the CRM ones, which are what CRMs map', async () => {
    expect((await csvRows('contacts', { lang: 'fr' }))[0]).toEqual([
      'Nom', 'Adresse', 'Ville', 'Code postal', 'Code pays', 'Téléphone', 'Site web', 'Type de téléphone', 'Autres téléphones', 'E-mails', 'Sources des e-mails', 'Statut des e-mails',
      'Facebook', 'LinkedIn', 'X (Twitter)', 'Instagram', 'TikTok', 'Source', 'Identifiant source', 'Lien source',
    ])
    expect((await csvRows('crm', { lang: 'fr' }))[0]).toEqual(HEADERS_EN.crm)
  })

  test('only the enrichments the export chose', async () => {
    expect((await csvRows('crm', { exportId: ids.emailOnly }))[0]).toEqual(HEADERS_EN.crm.filter((header) => !header.endsWith('Company Page') && header !== 'Mobile Phone Number'))
    expect((await csvRows('contacts', { exportId: ids.emailOnly }))[0]).toEqual(['Name', 'Address', 'City', 'Postal code', 'Country code', 'Phone', 'Website', 'Emails', 'Email sources', 'Email status', ...PROVENANCE_EN])
  })

  test('an unknown preset is refused', async () => {
    await expect(openExportDownload({ claims: { sub: alice }, exportId: ids.full, format: 'csv', preset: 'everything' as DownloadPreset })).rejects.toThrow(/unknown preset/)
  })
})

describe('values', () => {
  test('provenance names the source, its id and its page', async () => {
    const [osm, google, demo] = records(await csvRows('contacts', { separator: 'comma' }))
    expect([osm!.Source, google!.Source, demo!.Source]).toEqual(['OpenStreetMap', 'Google', 'Demo data'])
    expect(osm!['Source ID']).toBe(seeded[0]!.place_id)
    expect(osm!['Source URL']).toBe(`https://www.openstreetmap.org/${seeded[0]!.place_id}`)
    expect(google!['Source URL']).toBe(`https://www.google.com/maps/place/?q=place_id:${seeded[1]!.place_id}`)
    expect(demo!['Source URL']).toBe('')
    const [, , demoFr] = records(await csvRows('contacts', { lang: 'fr' }))
    expect(demoFr!.Source).toBe('Données de démonstration')
  })

  test('CRM: one email per cell, formulas neutralised, phone and links intact (CSV and XLSX)', async () => {
    for (const [osm, google] of [records(await csvRows('crm', { separator: 'semicolon' })), records(await xlsxRows('crm'))]) {
      expect(osm).toMatchObject({
        'Company name': `'${FORMULA_NAME}`,
        'Street Address': '3 rue de Siam, 29200 Brest',
        'Postal Code': '29200',
        'Country/Region': 'FR',
        'Phone Number': '+33 2 98 00 00 00',
        'Website URL': 'https://fournil.example',
        Email: "'@SUM(1)@fournil.example",
        'Facebook Company Page': 'https://facebook.com/fournil',
        'LinkedIn Company Page': 'https://linkedin.com/company/fournil',
      })
      expect(google).toMatchObject({ 'Company name': 'Café du Port', Email: 'bonjour@cafe.example', Source: 'Google' })
    }
  })

  test('All keeps numbers numeric, with the dialect’s decimal mark', async () => {
    expect(records(await csvRows('all', { separator: 'semicolon' }))[1]!.Rating).toBe('4,5')
    expect(records(await csvRows('all', { separator: 'comma' }))[1]!.Rating).toBe('4.5')
    expect(records(await xlsxRows('all'))[1]!.Rating).toBe(4.5)
  })
})

describe('remembered preset', () => {
  test('defaults to all, then is what the user last chose, for that user only', async () => {
    const aliceUser = { id: alice, claims: { sub: alice } }
    const bobUser = { id: bob, claims: { sub: bob } }
    expect(await readDownloadPreset(aliceUser)).toBe('all')
    for (const preset of DOWNLOAD_PRESETS) {
      await rememberDownloadPreset(aliceUser, preset) // every preset fits the column's check constraint
      expect(await readDownloadPreset(aliceUser)).toBe(preset)
    }
    await rememberDownloadPreset(aliceUser, 'crm')
    expect(await readDownloadPreset(bobUser)).toBe('all')
    // RLS: Bob cannot write Alice's row, even naming it.
    await rememberDownloadPreset({ id: alice, claims: { sub: bob } }, 'contacts')
    expect(await readDownloadPreset(aliceUser)).toBe('crm')
  })
})
