// POST /api/v1/enrichments (issue 31 item 4): a list as JSON rows or as a multipart file, through the real dispatcher,
// commands and database. It launches the same export command as the /lists pages: Idempotency-Key replays (200) or
// conflicts (409) without leaving a second list behind; a bad mapping or an unreadable file is a 4xx problem that
// stores nothing; every answer matches the OpenAPI document (the typed client checks it).
import { randomUUID } from 'node:crypto'
import ExcelJS from 'exceljs'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { API_ORIGIN, appFetch, createApiUser } from '#tests/support/api-client.ts'

let admin: pg.Pool

beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 })
})

afterAll(async () => {
  await closeDb()
  await admin?.end()
})

const ROWS: Array<Record<string, string | null>> = [
  { 'Raison sociale': 'Boulangerie Martin', 'Code postal': '29200', Ville: 'Brest', Note: 'stand 4' },
  { 'Raison sociale': '', SIRET: '732 829 320 00009', Note: 'vu au salon' },
  { 'Site web': 'https://www.exemple-boulangerie.fr', Note: null },
]
const MAPPING = { 'Raison sociale': 'name', 'Code postal': 'postal_code', Ville: 'city', SIRET: 'siret', 'Site web': 'website' } as const

async function listsOf(workspaceId: string): Promise<Array<{ id: string; export_id: string | null; format: string; headers: string[]; row_count: number }>> {
  const { rows } = await admin.query('select id, export_id, format, headers, row_count from public.lists where user_id = $1 order by created_at', [workspaceId])
  return rows
}

function upload(key: string, form: FormData, headers: Record<string, string> = {}) {
  return appFetch(`${API_ORIGIN}/api/v1/enrichments`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, ...headers }, body: form })
}

describe('POST /enrichments with JSON rows', () => {
  it('stores the rows as a list and launches its export; the same key replays it, another body conflicts, and no list is left behind', async () => {
    const { api, user } = await createApiUser(admin)
    const idempotencyKey = randomUUID()
    const body = { name: 'Salon 2026', rows: ROWS, mapping: MAPPING, enrichments: ['phone' as const, 'email' as const] }
    const created = await api.POST('/api/v1/enrichments', { params: { header: { 'Idempotency-Key': idempotencyKey } }, body })
    expect(created.response.status).toBe(202)
    const exportId = created.data!.id
    expect(created.response.headers.get('Location')).toBe(`/api/v1/exports/${exportId}`)
    expect(created.data).toMatchObject({ name: 'Salon 2026', status: 'processing', enrichments: ['phone', 'email'] })
    const [list] = await listsOf(user.workspace.id)
    expect(list).toMatchObject({ export_id: exportId, format: 'json', headers: ['Raison sociale', 'Code postal', 'Ville', 'Note', 'SIRET', 'Site web'], row_count: 3 })
    const { rows: cells } = await admin.query<{ cells: string[] }>('select cells from public.list_rows where list_id = $1 order by line', [list!.id])
    expect(cells.map((row) => row.cells)).toEqual([
      ['Boulangerie Martin', '29200', 'Brest', 'stand 4', '', ''],
      ['', '', '', 'vu au salon', '732 829 320 00009', ''],
      ['', '', '', '', '', 'https://www.exemple-boulangerie.fr'],
    ])

    const replay = await api.POST('/api/v1/enrichments', { params: { header: { 'Idempotency-Key': idempotencyKey } }, body })
    expect([replay.response.status, replay.data?.id]).toEqual([200, exportId])
    const conflict = await api.POST('/api/v1/enrichments', { params: { header: { 'Idempotency-Key': idempotencyKey } }, body: { ...body, rows: [...ROWS.slice(0, 2), { ...ROWS[2]!, Note: 'autre' }] } })
    expect(conflict.response.status).toBe(409)
    expect(conflict.error).toMatchObject({ code: 'idempotency_conflict' })
    expect((await listsOf(user.workspace.id)).map((row) => row.export_id)).toEqual([exportId])
  })

  it('guesses the columns when no mapping is sent', async () => {
    const { api, user } = await createApiUser(admin)
    const created = await api.POST('/api/v1/enrichments', { body: { name: 'Sans mapping', rows: ROWS, enrichments: ['email'] } })
    expect(created.response.status).toBe(202)
    const { rows } = await admin.query<{ mapping: { columns: string[] } }>('select mapping from public.lists where user_id = $1', [user.workspace.id])
    expect(rows[0]!.mapping.columns).toEqual(['name', 'postal_code', 'city', 'ignore', 'siret', 'website'])
  })

  it('refuses a mapping naming a column the rows lack, or one nothing can be matched by, in the caller\'s language, storing nothing', async () => {
    const { api, user } = await createApiUser(admin)
    const unknown = await api.POST('/api/v1/enrichments', { body: { name: 'x', rows: ROWS, mapping: { Société: 'name' }, enrichments: ['email'] } })
    expect(unknown.response.status).toBe(422)
    expect(unknown.error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.mapping.Société', message: 'No column of the list has this name.' }] })
    const noKey = await api.POST('/api/v1/enrichments', { body: { name: 'x', rows: ROWS, mapping: { Ville: 'city' }, enrichments: ['email'] }, headers: { 'Accept-Language': 'fr' } })
    expect(noKey.response.status).toBe(422)
    expect(noKey.error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.mapping', message: 'Associez au moins une colonne à une raison sociale, un site web, un SIREN ou un SIRET.' }] })
    const tooMany = await api.POST('/api/v1/enrichments', { body: { name: 'x', rows: Array.from({ length: 1001 }, () => ROWS[0]!), enrichments: ['email'] } })
    expect(tooMany.response.status).toBe(422)
    expect(await listsOf(user.workspace.id)).toEqual([])
  })
})

describe('POST /enrichments with a file', () => {
  it('takes an XLSX as multipart/form-data, with the mapping as JSON and the enrichments comma-separated', async () => {
    const { key, user } = await createApiUser(admin)
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('Salon')
    sheet.addRow(['Société', 'N° SIRET', 'Commentaire'])
    sheet.addRow(['Boulangerie Martin', 73282932000009, 'stand 4'])
    sheet.addRow(['Fournil du Port', '', 'allée B'])
    const form = new FormData()
    form.set('file', new Blob([await book.xlsx.writeBuffer()]), 'salon.xlsx')
    form.set('mapping', JSON.stringify({ Société: 'name', 'N° SIRET': 'siret' }))
    form.set('enrichments', 'phone, email')
    const answer = await upload(key, form)
    expect(answer.status).toBe(202)
    const created = (await answer.json()) as { id: string; name: string; enrichments: string[] }
    expect(created).toMatchObject({ name: 'salon', enrichments: ['phone', 'email'] })
    expect(await listsOf(user.workspace.id)).toMatchObject([{ export_id: created.id, format: 'xlsx', headers: ['Société', 'N° SIRET', 'Commentaire'], row_count: 2 }])
  })

  it('refuses a binary file, a file field left out and an unknown enrichment with a problem, storing nothing', async () => {
    const { key, user } = await createApiUser(admin)
    const binary = new FormData()
    binary.set('file', new Blob([Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0, 0, 0])]), 'liste.pdf')
    binary.set('enrichments', 'email')
    const refused = await upload(key, binary)
    expect(refused.status).toBe(422)
    expect(refused.headers.get('Content-Type')).toMatch(/^application\/problem\+json/)
    expect(await refused.json()).toMatchObject({ code: 'file_refused', detail: 'This file is a PDF, not a CSV or .xlsx file. Save it as CSV or .xlsx, then upload it again.' })

    const noFile = new FormData()
    noFile.set('enrichments', 'email')
    expect(await (await upload(key, noFile)).json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.file' }] })

    const badEnrichment = new FormData()
    badEnrichment.set('file', new Blob(['Site web\nexemple.fr\n']), 'liste.csv')
    badEnrichment.set('enrichments', 'email,fax')
    expect(await (await upload(key, badEnrichment)).json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.enrichments' }] })
    expect(await listsOf(user.workspace.id)).toEqual([])
  })
})
