// Export download (SPEC §5 file name, §7 download; ARCHITECTURE §5 item 5) against the real
// embedded Postgres: runs as the user through RLS, streams CSV and XLSX, neutralises formulas,
// and always gives its connection back (end of stream, cancel, abort).
import { randomUUID } from 'node:crypto'
import ExcelJS from 'exceljs'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, inject, test, vi } from 'vitest'
import { adminDb, closeDb, getPool, jsonb, type EnrichmentOptionsJson } from '#app/.server/db.ts'
import { openExportDownload, type DownloadFormat } from '#app/.server/exports/download.ts'
import { adminFrFields, formatTechnologies, formatWorkingHours, socialUrl } from '#app/domain/lead-file-values.ts'
import { neutralizeFormula } from '#app/.server/exports/download/formulas.ts'
import type { CsvSeparator } from '#app/domain/csv-format.ts'
import { parse as parseCsvText } from 'csv-parse/sync'

const NOW = new Date('2026-11-22T09:30:00Z')
const FORMULA_NAME = '=HYPERLINK("http://x")'
const ALL_OPTIONS: EnrichmentOptionsJson = { phone: true, website: true, email: true, technologies: true, social: { facebook: true, instagram: false }, admin_fr_info: true }

const BASE_HEADERS = [
  'Name',
  'Address',
  'City',
  'Postal code',
  'Country code',
  'Phone',
  'Website',
  'Latitude',
  'Longitude',
  'Rating',
  'Review count',
  'Categories',
  'Google Maps URL',
  'Opening hours',
  'Business status',
  'Description',
]
/** Where each lead comes from: last in every file, whatever the preset. */
const PROVENANCE_HEADERS = ['Source', 'Source ID', 'Source URL']
const ALL_HEADERS = [
  ...BASE_HEADERS,
  'Phone type',
  'Other phones',
  'Phone enrichment status',
  'Website enrichment status',
  'Emails',
  'Email sources',
  'Email status',
  'Email enrichment status',
  'Technologies',
  'Technologies enrichment status',
  'Facebook',
  'LinkedIn',
  'X (Twitter)',
  'Instagram',
  'TikTok',
  'Social media enrichment status',
  'SIREN',
  'SIRET',
  'Legal name',
  'NAF code',
  'Legal category',
  'Headcount band',
  'Creation date',
  'Match confidence',
  'Activity (NAF label)',
  'Legal form',
  'Headcount',
  'Administrative state',
  'Head office address',
  'Directors',
  'Identified by',
  'SIREN/SIRET page',
  'Risk (BODACC)',
  'Risk date',
  'Court',
  'BODACC announcement',
  'Company registry enrichment status',
  ...PROVENANCE_HEADERS,
]

let admin: pg.Pool
let alice: string
let bob: string
const ids = { full: '', emailOnly: '', big: '', empty: '' }
// This machine's tests share two cores with everything else: give the big files room.
const SLOW = 60_000
const LEAD_COUNT = 25
const BIG_COUNT = 5000

async function createAuthUser(): Promise<string> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  return id
}

async function createExport(userId: string, name: string, enrichmentOptions: EnrichmentOptionsJson): Promise<string> {
  const row = await adminDb()
    .insertInto('exports')
    .values({ user_id: userId, name, status: 'completed', enrichment_options: enrichmentOptions })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * 25 leads for `exportId`, inserted in reverse so only `position` gives the file order:
 * position 0 is the formula lead, 1 the fully enriched one, the rest plain ones.
 */
async function seedLeads(userId: string, exportId: string) {
  const db = adminDb()
  for (let position = LEAD_COUNT - 1; position >= 0; position--) {
    const base = {
      user_id: userId,
      source: 'demo',
      place_id: `place-${exportId}-${position}`,
      name: `Lead ${position}`,
      city: 'Nantes',
      postal_code: '44000',
      country_code: 'FR',
      latitude: 47.2184,
      longitude: -1.5536, // negative: a number, never "neutralised"
      rating: 4,
      review_count: position,
      business_types: ['bakery'],
    }
    const lead =
      position === 0
        ? { ...base, name: FORMULA_NAME, description: '+cmd|calc', operational_state: '@SUM(1)', website: '-http://x', full_address: 'Shop\n=1+1', city: 'Nantes\r\n-2+3' }
        : position === 1
          ? {
              ...base,
              name: 'Boulangerie Paul',
              full_address: '12 rue de la Paix, 75002 Paris',
              city: 'Paris',
              postal_code: '75002',
              phone: '+33 1 23 45 67 89',
              website: 'https://boulangerie-paul.fr',
              latitude: 48.8686,
              longitude: 2.3314,
              rating: 4.5,
              review_count: 128,
              business_types: ['bakery', 'cafe'],
              google_maps_url: 'https://maps.google.com/?cid=1',
              working_hours: jsonb({ weekdayDescriptions: ['Monday: 7:00 AM – 8:00 PM', 'Tuesday: Closed'] }),
              operational_state: 'OPERATIONAL',
              description: 'Pain, "viennoiseries"\net gâteaux',
              email: ['contact@boulangerie-paul.fr', 'paul@boulangerie-paul.fr'],
              phone_sources: {
                '+33 6 71 23 45 89': { type: 'mobile' as const, page: 'https://boulangerie-paul.fr/contact', rank: 1 },
                '+33 1 23 45 67 89': { type: 'landline' as const, page: null, rank: 0 },
                '+33 800 12 34 56': { type: 'toll_free' as const, page: 'https://boulangerie-paul.fr/', rank: 2 },
              },
              email_sources: {
                'contact@boulangerie-paul.fr': {
                  page: 'https://boulangerie-paul.fr/contact',
                  found_at: '2026-11-21T09:30:00.000Z',
                  check: { status: 'valid' as const, role: true, webmail: false },
                },
                'paul@boulangerie-paul.fr': { page: null, found_at: '2026-11-21T09:30:00.000Z' },
              },
              technologies: { CMS: 'WordPress', 'JavaScript libraries': ['jQuery', 'React'] },
              social_media: {
                facebook: 'https://facebook.com/paul',
                LinkedIn: 'https://linkedin.com/company/paul',
                x: 'https://x.com/paul',
                instagram: 'https://instagram.com/paul',
                tiktok: 'https://tiktok.com/@paul',
              },
              admin_fr_info: {
                confidence: 0.92,
                matched_by: 'siret',
                id_source_page: 'https://boulangerie-paul.fr/mentions-legales',
                results: [
                  {
                    siren: '552100554',
                    nom_raison_sociale: 'BOULANGERIE PAUL',
                    activite_principale: '10.71C',
                    nature_juridique: '5710',
                    tranche_effectif_salarie: '11',
                    date_creation: '1998-04-01',
                    // Codes only, as matches were stored before labels were read at download time.
                    etat_administratif: 'A',
                    siege_adresse: '3 RUE DU BAC 75007 PARIS',
                    dirigeants: [{ nom: 'PAUL', prenoms: 'MARIE', qualite: 'Président' }],
                    siege: { siret: '55210055400013' },
                  },
                ],
              },
            }
          : base
    const { id } = await db.insertInto('leads').values(lead).returning('id').executeTakeFirstOrThrow()
    const statuses =
      position === 1
        ? {
            phone_status: 'success',
            website_status: 'success',
            email_status: 'success',
            technologies_status: 'success',
            social_media_status: 'success',
            admin_fr_info_status: 'success',
            // The phone was bought by an earlier export and reused here for free.
            reused: { phone: '2026-11-20T08:00:00+00:00' },
          } as const
        : { phone_status: 'not_found', email_status: 'failed', admin_fr_info_status: 'pending' } as const
    await db.insertInto('export_leads').values({ export_id: exportId, lead_id: id, user_id: userId, position, ...statuses }).execute()
  }
}

async function seedBig(userId: string, exportId: string, count: number) {
  await admin.query(
    `with inserted as (
       insert into public.leads (user_id, source, place_id, name, full_address, city, description, rating, review_count)
       select $1, 'bench', 'big-' || g, 'Lead ' || g, g || ' rue de la République, 69002 Lyon', 'Lyon', repeat('Description ', 20), 4.2, g
         from generate_series(1, $3::int) g
       returning id, place_id)
     insert into public.export_leads (export_id, lead_id, user_id, position)
     select $2, id, $1, substr(place_id, 5)::int from inserted`,
    [userId, exportId, count],
  )
}

async function read(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(body).arrayBuffer())
}

async function download(format: DownloadFormat, exportId = ids.full, options: { lang?: 'fr' | 'en'; user?: string; separator?: CsvSeparator; emails?: 'all' | 'valid' } = {}) {
  const opened = await openExportDownload({ claims: { sub: options.user ?? alice }, exportId, format, now: NOW, lang: options.lang, separator: options.separator, emails: options.emails })
  if (!opened) throw new Error('export not found')
  return { ...opened, bytes: await read(opened.body) }
}

/** Parsed as a spreadsheet would: any line break outside quotes ends a row; `delimiter` is the list separator. */
function parseCsv(text: string, delimiter: ',' | ';' = ','): string[][] {
  return parseCsvText(text, { delimiter, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true })
}

async function loadXlsx(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer)
  const sheet = workbook.worksheets[0]
  if (!sheet) throw new Error('no worksheet')
  return sheet
}

/** Every pooled client is back and idle. */
function expectPoolSettled() {
  const pool = getPool()
  expect({ idle: pool.idleCount, waiting: pool.waitingCount }).toEqual({ idle: pool.totalCount, waiting: 0 })
}

/** The backend currently streaming a download (its cursor query is the leads select). */
async function downloadBackends(): Promise<Array<{ pid: number; state: string }>> {
  const { rows } = await admin.query<{ pid: number; state: string }>(
    `select pid, state from pg_stat_activity
      where application_name = 'leadatlas' and query like '%from "export_leads" as "el"%' and state <> 'idle'`,
  )
  return rows
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  alice = await createAuthUser()
  bob = await createAuthUser()
  ids.full = await createExport(alice, 'Boulangeries Paris 11e!', ALL_OPTIONS)
  await seedLeads(alice, ids.full)
  ids.emailOnly = await createExport(alice, 'Café Crème', { email: true, social: { facebook: false } })
  await seedLeads(alice, ids.emailOnly)
  ids.big = await createExport(alice, 'Big one', { email: true })
  await seedBig(alice, ids.big, BIG_COUNT)
  ids.empty = await createExport(alice, 'Nothing yet', {})
  // Bob has an export of his own, so "null for Alice's" is RLS and not an empty database.
  await seedLeads(bob, await createExport(bob, 'Bob', { email: true }))
})

afterEach(() => {
  expectPoolSettled()
})

afterAll(async () => {
  await closeDb()
  await admin.end()
})

describe('CSV', () => {
  test('BOM, header row, one row per lead in position order, formulas neutralised, numbers plain', async () => {
    const { fileName, contentType, bytes } = await download('csv')
    expect(fileName).toBe('boulangeries_paris_11e__2026-11-22.csv')
    expect(contentType).toBe('text/csv; charset=utf-8')
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])

    const rows = parseCsv(bytes.subarray(3).toString('utf8'))
    expect(rows[0]).toEqual(ALL_HEADERS)
    expect(rows).toHaveLength(1 + LEAD_COUNT)
    for (const row of rows) expect(row).toHaveLength(ALL_HEADERS.length)
    const records = rows.slice(1).map((row) => Object.fromEntries(ALL_HEADERS.map((header, i) => [header, row[i]])))
    expect(records.slice(2).map((record) => record.Name)).toEqual(Array.from({ length: LEAD_COUNT - 2 }, (_, i) => `Lead ${i + 2}`))

    // Formula text gets a leading single quote.
    const formula = records[0]!
    expect(formula.Name).toBe(`'${FORMULA_NAME}`)
    expect(formula.Description).toBe("'+cmd|calc")
    expect(formula['Business status']).toBe("'@SUM(1)")
    expect(formula.Website).toBe("'-http://x")
    expect(formula.Longitude).toBe('-1.5536') // a number: not prefixed
    expect(bytes.toString('utf8')).toContain(`"'=HYPERLINK(""http://x"")"`)
    // A line break inside a field is quoted, so "=1+1" cannot start a row of its own (the row count above holds too).
    expect(formula.Address).toBe('Shop\n=1+1')
    expect(formula.City).toBe('Nantes\r\n-2+3')
    expect(bytes.toString('utf8')).toContain('"Shop\n=1+1"')
    for (const record of records) {
      for (const value of Object.values(record)) {
        if (!Number.isFinite(Number(value)) && !/^\+[\d ]+$/.test(value ?? '')) expect(value ?? '').not.toMatch(/^\s*[=+\-@]/)
      }
    }

    expect(records[1]).toEqual({
      Name: 'Boulangerie Paul',
      Address: '12 rue de la Paix, 75002 Paris',
      City: 'Paris',
      'Postal code': '75002',
      'Country code': 'FR',
      Phone: '+33 1 23 45 67 89', // plainly a phone number: kept as is (click-to-call, CRM import)
      Website: 'https://boulangerie-paul.fr',
      Latitude: '48.8686',
      Longitude: '2.3314',
      Rating: '4.5',
      'Review count': '128',
      Categories: 'bakery; cafe',
      'Google Maps URL': 'https://maps.google.com/?cid=1',
      'Opening hours': 'Monday: 7:00 AM – 8:00 PM; Tuesday: Closed',
      'Business status': 'Open',
      Description: 'Pain, "viennoiseries"\net gâteaux',
      'Phone type': 'landline',
      'Other phones': 'mobile: +33 6 71 23 45 89; toll-free: +33 800 12 34 56',
      'Phone enrichment status': 'Reused (2026-11-20)',
      'Website enrichment status': 'Found',
      Emails: 'contact@boulangerie-paul.fr; paul@boulangerie-paul.fr',
      'Email sources': 'contact@boulangerie-paul.fr: https://boulangerie-paul.fr/contact (2026-11-21); paul@boulangerie-paul.fr (2026-11-21)',
      // paul@ was found before verification existed: no status.
      'Email status': 'contact@boulangerie-paul.fr: valid, role',
      'Email enrichment status': 'Found',
      Technologies: 'CMS: WordPress; JavaScript libraries: jQuery, React',
      'Technologies enrichment status': 'Found',
      Facebook: 'https://facebook.com/paul',
      LinkedIn: 'https://linkedin.com/company/paul',
      'X (Twitter)': 'https://x.com/paul',
      Instagram: 'https://instagram.com/paul',
      TikTok: 'https://tiktok.com/@paul',
      'Social media enrichment status': 'Found',
      SIREN: '552100554',
      SIRET: '55210055400013',
      'Legal name': 'BOULANGERIE PAUL',
      'NAF code': '10.71C',
      'Legal category': '5710',
      'Headcount band': '11',
      'Creation date': '1998-04-01',
      'Match confidence': '0.92',
      'Activity (NAF label)': 'Boulangerie et boulangerie-pâtisserie',
      'Legal form': 'SAS, société par actions simplifiée',
      Headcount: '10 to 19 employees',
      'Administrative state': 'Active',
      'Head office address': '3 RUE DU BAC 75007 PARIS',
      Directors: 'MARIE PAUL (Président)',
      'Identified by': 'SIRET printed on the site',
      'SIREN/SIRET page': 'https://boulangerie-paul.fr/mentions-legales',
      'Risk (BODACC)': '',
      'Risk date': '',
      Court: '',
      'BODACC announcement': '',
      'Company registry enrichment status': 'Found',
      Source: 'Demo data',
      'Source ID': `place-${ids.full}-1`,
      'Source URL': '', // demo data has no page of its own
    })
    expect(records[2]).toMatchObject({
      Emails: '',
      'Phone enrichment status': 'Not found',
      'Website enrichment status': 'Not requested',
      'Email enrichment status': 'Failed',
      'Company registry enrichment status': 'Pending',
    })
  })

  test('French headers and statuses', async () => {
    const { bytes } = await download('csv', ids.full, { lang: 'fr' })
    const rows = parseCsv(bytes.subarray(3).toString('utf8'), ';') // French: semicolons by default
    expect(rows[0]?.slice(0, 6)).toEqual(['Nom', 'Adresse', 'Ville', 'Code postal', 'Code pays', 'Téléphone'])
    expect(rows[0]).toContain('Raison sociale')
    expect(rows[2]).toContain('Trouvé')
    expect(rows[2]).toContain('Réutilisé (2026-11-20)')
    // Every value a user reads is French, not a stored code (issue "Polish round 3", item 8).
    const cell = (header: string) => rows[2]?.[rows[0]!.indexOf(header)]
    expect(cell("Statut de l'établissement")).toBe('En activité')
    expect(cell('Type de téléphone')).toBe('fixe')
    expect(cell('Autres téléphones')).toBe('mobile: +33 6 71 23 45 89; numéro vert: +33 800 12 34 56')
    expect(cell('Statut des e-mails')).toBe('contact@boulangerie-paul.fr: valide, générique')
    expect(cell('Technologies')).toBe('CMS: WordPress; Bibliothèques JavaScript: jQuery, React')
    expect(rows[2]?.join('|')).not.toMatch(/OPERATIONAL|landline|toll_free|valid, role/)
  })

  test('enrichment columns only for the options the export chose', async () => {
    const { fileName, bytes } = await download('csv', ids.emailOnly)
    expect(fileName).toBe('cafe_creme_2026-11-22.csv')
    const rows = parseCsv(bytes.subarray(3).toString('utf8'))
    expect(rows[0]).toEqual([...BASE_HEADERS, 'Emails', 'Email sources', 'Email status', 'Email enrichment status', ...PROVENANCE_HEADERS])
    expect(rows[2]?.slice(-7, -3)).toEqual([
      'contact@boulangerie-paul.fr; paul@boulangerie-paul.fr',
      'contact@boulangerie-paul.fr: https://boulangerie-paul.fr/contact (2026-11-21); paul@boulangerie-paul.fr (2026-11-21)',
      'contact@boulangerie-paul.fr: valid, role',
      'Found',
    ])
  })

  test('"valid only" keeps the addresses verified valid (an unverified one is left out)', async () => {
    const { bytes } = await download('csv', ids.emailOnly, { emails: 'valid' })
    const rows = parseCsv(bytes.subarray(3).toString('utf8'))
    expect(rows[2]?.slice(-7, -3)).toEqual([
      'contact@boulangerie-paul.fr',
      'contact@boulangerie-paul.fr: https://boulangerie-paul.fr/contact (2026-11-21)',
      'contact@boulangerie-paul.fr: valid, role',
      'Found',
    ])
    await expect(download('csv', ids.emailOnly, { emails: 'some' as never })).rejects.toThrow(/unknown emails filter/)
  })

  test('an export without leads is the header row alone', async () => {
    const { bytes } = await download('csv', ids.empty)
    expect(parseCsv(bytes.subarray(3).toString('utf8').trimEnd() + '\r\n')).toEqual([[...BASE_HEADERS, ...PROVENANCE_HEADERS]])
  })

  test('thousands of leads arrive complete and in order', { timeout: SLOW }, async () => {
    const { bytes } = await download('csv', ids.big)
    const rows = parseCsv(bytes.subarray(3).toString('utf8'))
    expect(rows).toHaveLength(1 + BIG_COUNT)
    expect(rows[1]?.[0]).toBe('Lead 1')
    expect(rows.at(-1)?.[0]).toBe(`Lead ${BIG_COUNT}`)
  })
})

describe('CSV dialects (comma / semicolon)', () => {
  /** Columns read back the way a spreadsheet in that locale would, by header. */
  async function records(options: { lang?: 'fr' | 'en'; separator?: CsvSeparator }, delimiter: ',' | ';') {
    const { bytes } = await download('csv', ids.full, options)
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = bytes.subarray(3).toString('utf8')
    const rows = parseCsv(text, delimiter)
    const headers = rows[0]!
    expect(rows).toHaveLength(1 + LEAD_COUNT)
    for (const row of rows) expect(row).toHaveLength(headers.length)
    return { text, headers, records: rows.slice(1).map((row) => Object.fromEntries(headers.map((header, i) => [header, row[i]!]))) }
  }

  test('the default follows the language: ";" and decimal commas in French, "," and points in English', async () => {
    const fr = await records({ lang: 'fr' }, ';')
    expect(fr.headers).toContain('Raison sociale')
    expect(fr.records[1]).toMatchObject({ Note: '4,5', Latitude: '48,8686', Longitude: '2,3314', 'Indice de confiance': '0,92', "Nombre d'avis": '128' })
    const en = await records({ lang: 'en' }, ',')
    expect(en.records[1]).toMatchObject({ Rating: '4.5', Latitude: '48.8686', 'Match confidence': '0.92' })
    // Read with "," (an English spreadsheet), the French header row is one column: what the bug looked like.
    expect(parseCsv(fr.text.split('\r\n')[0]!, ',')[0]).toHaveLength(1)
  })

  test('registry codes read in the file language, from a match stored with codes only', async () => {
    const { records: fr } = await records({ lang: 'fr' }, ';')
    expect(fr[1]).toMatchObject({
      'Activité (libellé NAF)': 'Boulangerie et boulangerie-pâtisserie',
      'Forme juridique': 'SAS, société par actions simplifiée',
      'Effectif salarié': '10 à 19 salariés',
      'État administratif': 'Actif',
      'Identifié par': 'SIRET affiché sur le site',
    })
    const { records: en } = await records({ lang: 'en' }, ',')
    // NAF and legal-form labels exist in French only (INSEE): the same in both files.
    expect(en[1]).toMatchObject({ 'Legal form': 'SAS, société par actions simplifiée', Headcount: '10 to 19 employees', 'Administrative state': 'Active' })
  })

  test('an explicit separator wins over the language', async () => {
    const comma = await records({ lang: 'fr', separator: 'comma' }, ',')
    expect(comma.records[1]).toMatchObject({ Nom: 'Boulangerie Paul', Note: '4.5' })
    const semicolon = await records({ lang: 'en', separator: 'semicolon' }, ';')
    expect(semicolon.records[1]).toMatchObject({ Name: 'Boulangerie Paul', Rating: '4,5' })
  })

  test.each([
    ['comma', ',', '.'],
    ['semicolon', ';', ','],
  ] as const)('%s: RFC 4180 quoting, formulas neutralised, line breaks quoted', async (separator, delimiter, decimalMark) => {
    const { text, records: rows } = await records({ lang: 'en', separator }, delimiter)
    // Every record ends in CRLF; a field holding the delimiter, a quote or a line break is quoted, quotes doubled.
    expect(text.endsWith('\r\n')).toBe(true)
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`)
    expect(text).toContain('"Shop\n=1+1"')
    expect(text).toContain('"Nantes\r\n-2+3"')
    expect(text).toContain(delimiter === ';' ? '"bakery; cafe"' : '"12 rue de la Paix, 75002 Paris"')
    const formula = rows[0]!
    expect(formula).toMatchObject({ Name: `'${FORMULA_NAME}`, Description: "'+cmd|calc", 'Business status': "'@SUM(1)", Website: "'-http://x" })
    expect(formula).toMatchObject({ Address: 'Shop\n=1+1', City: 'Nantes\r\n-2+3', Longitude: `-1${decimalMark}5536` })
    const paul = rows[1]!
    expect(paul).toMatchObject({
      Address: '12 rue de la Paix, 75002 Paris',
      Categories: 'bakery; cafe',
      Phone: '+33 1 23 45 67 89',
      Description: 'Pain, "viennoiseries"\net gâteaux',
      Rating: `4${decimalMark}5`,
      'Match confidence': `0${decimalMark}92`,
      'Creation date': '1998-04-01',
    })
    // What a spreadsheet would run: nothing but plain numbers and phone numbers starts with a trigger.
    const number = new RegExp(`^-?\\d+(\\${decimalMark}\\d+)?$`)
    for (const record of rows) {
      for (const value of Object.values(record)) {
        if (!number.test(value) && !/^\+[\d ]+$/.test(value)) expect(value).not.toMatch(/^\s*[=+\-@]/)
      }
    }
  })

  test('thousands of leads with semicolons', { timeout: SLOW }, async () => {
    const { bytes } = await download('csv', ids.big, { separator: 'semicolon' })
    const rows = parseCsv(bytes.subarray(3).toString('utf8'), ';')
    expect(rows).toHaveLength(1 + BIG_COUNT)
    expect(rows.at(-1)?.slice(0, 3)).toEqual([`Lead ${BIG_COUNT}`, `${BIG_COUNT} rue de la République, 69002 Lyon`, 'Lyon'])
    expect(rows.at(-1)?.[9]).toBe('4,2')
  })

  test('an unknown separator is refused before any connection is taken', async () => {
    await expect(openExportDownload({ claims: { sub: alice }, exportId: ids.full, format: 'csv', separator: 'tab' as CsvSeparator })).rejects.toThrow(/separator/)
  })
})

describe('XLSX', () => {
  test('same columns; formula text stays text with a leading quote; numbers are numbers', async () => {
    const { fileName, contentType, bytes } = await download('xlsx')
    expect(fileName).toBe('boulangeries_paris_11e__2026-11-22.xlsx')
    expect(contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK')

    const sheet = await loadXlsx(bytes)
    expect(sheet.name).toBe('Leads')
    expect(sheet.rowCount).toBe(1 + LEAD_COUNT)
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(ALL_HEADERS)
    const column = (header: string) => ALL_HEADERS.indexOf(header) + 1

    const formula = sheet.getRow(2)
    const nameCell = formula.getCell(column('Name'))
    expect(nameCell.type).toBe(ExcelJS.ValueType.String)
    expect(nameCell.value).toBe(`'${FORMULA_NAME}`)
    expect(formula.getCell(column('Description')).value).toBe("'+cmd|calc")
    expect(formula.getCell(column('Business status')).value).toBe("'@SUM(1)")
    expect(formula.getCell(column('Longitude')).value).toBe(-1.5536)

    const paul = sheet.getRow(3)
    expect(paul.getCell(column('Rating')).value).toBe(4.5)
    expect(paul.getCell(column('Review count')).value).toBe(128)
    expect(paul.getCell(column('Latitude')).value).toBe(48.8686)
    expect(paul.getCell(column('Match confidence')).value).toBe(0.92)
    expect(paul.getCell(column('SIRET')).value).toBe('55210055400013') // text: no precision loss
    const phone = paul.getCell(column('Phone'))
    expect(phone.type).toBe(ExcelJS.ValueType.String) // text: the "+" and every digit kept
    expect(phone.value).toBe('+33 1 23 45 67 89')
    expect(paul.getCell(column('Description')).value).toBe('Pain, "viennoiseries"\net gâteaux')
    expect(paul.getCell(column('Technologies')).value).toBe('CMS: WordPress; JavaScript libraries: jQuery, React')

    // No formula cell anywhere, no text starting with a formula trigger.
    sheet.eachRow((row) => {
      row.eachCell((cell) => {
        expect(cell.type).not.toBe(ExcelJS.ValueType.Formula)
        if (typeof cell.value === 'string' && !/^\+[\d ]+$/.test(cell.value)) expect(cell.value).not.toMatch(/^\s*[=+\-@]/)
      })
    })
    expect(sheet.getRow(2 + 5).getCell(column('Review count')).value).toBe(5)
  })

  test('French sheet name and headers; chosen enrichments only', async () => {
    const { bytes } = await download('xlsx', ids.emailOnly, { lang: 'fr' })
    const sheet = await loadXlsx(bytes)
    expect(sheet.name).toBe('Prospects')
    const headers = (sheet.getRow(1).values as unknown[]).slice(1)
    expect(headers).toHaveLength(BASE_HEADERS.length + 4 + PROVENANCE_HEADERS.length)
    expect(headers.slice(-7)).toEqual(['E-mails', 'Sources des e-mails', 'Statut des e-mails', 'Statut enrichissement e-mail', 'Source', 'Identifiant source', 'Lien source'])
  })

  test('thousands of leads', { timeout: SLOW }, async () => {
    const { bytes } = await download('xlsx', ids.big)
    const sheet = await loadXlsx(bytes)
    expect(sheet.rowCount).toBe(1 + BIG_COUNT)
    expect(sheet.getRow(1 + BIG_COUNT).getCell(1).value).toBe(`Lead ${BIG_COUNT}`)
  })
})

describe('access (RLS)', () => {
  test("another user's export is null, like an unknown or malformed id", async () => {
    for (const format of ['csv', 'xlsx'] as const) {
      expect(await openExportDownload({ claims: { sub: bob }, exportId: ids.full, format })).toBeNull()
      expect(await openExportDownload({ claims: { sub: alice }, exportId: randomUUID(), format })).toBeNull()
      expect(await openExportDownload({ claims: { sub: alice }, exportId: 'not-a-uuid', format })).toBeNull()
    }
  })

  test('claims that are not a user are refused without leaking the client', async () => {
    await expect(openExportDownload({ claims: { sub: 'nope' }, exportId: ids.full, format: 'csv' })).rejects.toThrow(/uuid/)
    await expect(openExportDownload({ claims: { sub: alice, role: 'service_role' }, exportId: ids.full, format: 'csv' })).rejects.toThrow(
      /refusing role/,
    )
  })
})

describe('the connection always goes back', () => {
  test('a stream read to the end has committed and released before the consumer sees the end', { timeout: SLOW }, async () => {
    const opened = await openExportDownload({ claims: { sub: alice }, exportId: ids.big, format: 'csv' })
    const reader = opened!.body.getReader()
    while (!(await reader.read()).done) {
      // drain
    }
    expectPoolSettled()
    expect(await downloadBackends()).toEqual([])
  })

  test.each(['csv', 'xlsx'] as const)('%s: cancelling midway rolls back and releases the client', async (format) => {
    const opened = await openExportDownload({ claims: { sub: alice }, exportId: ids.big, format })
    const reader = opened!.body.getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    expect(first.value!.byteLength).toBeGreaterThan(0)
    // Mid-stream: one backend holds the cursor, its transaction open, waiting for us.
    const during = await downloadBackends()
    expect(during).toHaveLength(1)
    expect(getPool().totalCount - getPool().idleCount).toBe(1)

    await reader.cancel()
    expectPoolSettled()
    const { rows } = await admin.query<{ state: string }>('select state from pg_stat_activity where pid = $1', [during[0]!.pid])
    expect(rows[0]?.state ?? 'gone').toMatch(/^(idle|gone)$/)
    expect(await downloadBackends()).toEqual([])
  })

  test('cancelling before reading anything releases the client', async () => {
    const opened = await openExportDownload({ claims: { sub: alice }, exportId: ids.big, format: 'xlsx' })
    await opened!.body.cancel()
    expectPoolSettled()
  })

  test('an aborted request (signal) ends the stream with an error and releases the client', async () => {
    const controller = new AbortController()
    const opened = await openExportDownload({ claims: { sub: alice }, exportId: ids.big, format: 'csv', signal: controller.signal })
    const reader = opened!.body.getReader()
    await reader.read()
    controller.abort(new Error('client went away'))
    await expect(
      (async () => {
        while (!(await reader.read()).done) {
          // the stream errors
        }
      })(),
    ).rejects.toThrow()
    // The stream errors at once; the rollback and release follow asynchronously.
    await vi.waitFor(expectPoolSettled, { timeout: 10_000, interval: 20 })
    expect(await downloadBackends()).toEqual([])
  })

  test('downloads after all of that still work', async () => {
    const { bytes } = await download('csv', ids.emailOnly)
    expect(parseCsv(bytes.subarray(3).toString('utf8'))).toHaveLength(1 + LEAD_COUNT)
  })
})

describe('cell helpers (pure)', () => {
  test('neutralisation: formulas get a quote, plain data keeps its exact form', () => {
    const neutralised = ['=1+1', '=HYPERLINK("http://x")', '+1+1', '-1+2', '-2*3', '@SUM(A1)', '+cmd|calc', "-1+cmd|' /C calc'!A0", '-http://x', '\t=1', ' =1', '\n=1+1', '\r\n@x', '\uFF1D1', '\uFF0B1', '\uFF0D1', '\uFF201', '+', '-', '+33 1 2x', '+(1)+cmd']
    for (const sample of neutralised) expect(neutralizeFormula(sample), JSON.stringify(sample)).toBe(`'${sample}`)
    const kept = ['+33 1 23 45 67 89', '+33123456789', '+1 (555) 123-4567', '+44 20 7946 0958', '-12.5', '-3', '+4.5', '-0,5', 'plain', 'a=b', "'quoted", '\tx', '2026-11-24', 'Shop\n=1+1', '']
    for (const sample of kept) expect(neutralizeFormula(sample), JSON.stringify(sample)).toBe(sample)
  })

  test('technologies: category -> value or list', () => {
    expect(formatTechnologies({ CMS: 'WordPress', 'JavaScript libraries': ['jQuery', 'React'], Empty: [] }, 'en')).toBe(
      'CMS: WordPress; JavaScript libraries: jQuery, React',
    )
    expect(formatTechnologies({ Analytics: 'Google Analytics', 'JavaScript libraries': ['jQuery'], 'Some new category': 'X' }, 'fr')).toBe(
      "Mesure d'audience: Google Analytics; Bibliothèques JavaScript: jQuery; Some new category: X",
    )
    expect(formatTechnologies({}, 'en')).toBeNull()
    expect(formatTechnologies(null, 'en')).toBeNull()
  })

  test('working hours: OSM text, Google weekdayDescriptions, lists, day maps', () => {
    expect(formatWorkingHours('Mo-Fr 08:00-18:00', 'en')).toBe('Mon–Fri 08:00–18:00')
    // OpenStreetMap's syntax written out in the file's language (issue "Polish round 3", item 8).
    expect(formatWorkingHours('Tu-Sa 07:00-19:30; Su 07:00-13:00', 'fr')).toBe('mar.–sam. 07:00–19:30 ; dim. 07:00–13:00')
    expect(formatWorkingHours('Mo-Fr 09:00-12:30,14:00-19:00; Sa 09:00-18:00; PH off', 'fr')).toBe(
      'lun.–ven. 09:00–12:30, 14:00–19:00 ; sam. 09:00–18:00 ; jours fériés fermé',
    )
    expect(formatWorkingHours('24/7', 'fr')).toBe('ouvert 24 h/24, 7 j/7')
    expect(formatWorkingHours('sur rendez-vous', 'fr')).toBe('sur rendez-vous') // free text: as given
    expect(formatWorkingHours({ weekdayDescriptions: ['Monday: 9–5', 'Tuesday: Closed'], periods: [] }, 'en')).toBe('Monday: 9–5; Tuesday: Closed')
    expect(formatWorkingHours(['Mon 9-5', 'Tue 9-5'], 'en')).toBe('Mon 9-5; Tue 9-5')
    expect(formatWorkingHours({ monday: '9-5', tuesday: ['9-12', '14-18'] }, 'en')).toBe('monday: 9-5; tuesday: 9-12, 14-18')
    expect(formatWorkingHours({ open_now: true }, 'en')).toBe('{"open_now":true}')
    expect(formatWorkingHours(null, 'en')).toBeNull()
  })

  test('social networks: case-insensitive keys, x is twitter', () => {
    const social = { Facebook: 'https://facebook.com/a', x: 'https://x.com/a', youtube: 'https://youtube.com/a' }
    expect(socialUrl(social, 'facebook')).toBe('https://facebook.com/a')
    expect(socialUrl(social, 'twitter')).toBe('https://x.com/a')
    expect(socialUrl(social, 'tiktok')).toBeNull()
    expect(socialUrl(null, 'facebook')).toBeNull()
  })

  test('registry match: results[0] with recherche-entreprises names, or a flat object', () => {
    expect(
      adminFrFields({
        results: [{ siren: 552100554, nom_complet: 'PAUL (BOULANGERIE)', activite_principale: '10.71C', siege: { siret: '55210055400013' }, confidence: '0.8' }],
      }),
    ).toEqual({
      siren: '552100554',
      siret: '55210055400013',
      legal_name: 'PAUL (BOULANGERIE)',
      naf_code: '10.71C',
      legal_category: null,
      headcount_band: null,
      creation_date: null,
      match_confidence: 0.8,
      naf_label: null,
      legal_form: null,
      headcount: null,
      administrative_state: null,
      head_office_address: null,
      directors: null,
      matched_by: null,
      id_source_page: null,
      risk: null,
      risk_date: null,
      risk_tribunal: null,
      risk_announcement: null,
    })
    expect(adminFrFields({ siren: '1', legal_name: 'X', naf_code: '01.11Z', match_confidence: 1 })).toMatchObject({
      siren: '1',
      legal_name: 'X',
      naf_code: '01.11Z',
      match_confidence: 1,
    })
    expect(adminFrFields(null).siren).toBeNull()
    expect(adminFrFields({ results: [] }).siren).toBeNull()
  })
})
