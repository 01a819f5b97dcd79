// The do-not-contact page's commands against the real database, as the user (RLS): CSV import (ordinary exports, per-line report), all-or-nothing
// pastes, the per-user cap, removal, and "never export" returning only to an export page.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { runDncCommand } from '#app/.server/do-not-contact/commands.ts'
import { dncListCsv } from '#app/.server/do-not-contact/csv.ts'
import { listDncPage, readOwnDncList } from '#app/.server/do-not-contact/store.ts'
import { DNC_MAX_ENTRIES } from '#app/domain/do-not-contact.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

let admin: pg.Pool

async function createUser(): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email) values ($1, $2)', [id, `${id}@example.test`])
  return personalSession(id, `${id}@example.test`)
}

/** The entries themselves (kind, value): what an import restores. */
const entriesOf = (list: ReadonlyArray<{ kind: string; value: string }>) => list.map(({ kind, value }) => ({ kind, value }))

function form(fields: Record<string, string | File>): FormData {
  const data = new FormData()
  for (const [key, value] of Object.entries(fields)) data.append(key, value)
  return data
}

beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 })
})

afterAll(async () => {
  await closeDb()
  await admin.end()
})

describe('do-not-contact commands', () => {
  it('imports a CSV (our own kind,value header, quotes): the value column only; the same file again adds nothing', async () => {
    const user = await createUser()
    const csv = 'kind,value\nemail,"Jean@Exemple.FR"\ndomain,autre.fr\n"phone","04 78 12 34 56"\n'
    const imported = await runDncCommand(user, form({ intent: 'import', file: new File([csv], 'list.csv', { type: 'text/csv' }) }))
    expect(imported).toEqual({ ok: true, added: 3, report: { columns: ['value'], added: 3, alreadyListed: 0, duplicates: 0, rejected: 0, issues: [], issuesLeftOut: 0 } })
    expect(entriesOf(await readOwnDncList(user))).toEqual([
      { kind: 'domain', value: 'autre.fr' },
      { kind: 'email', value: 'jean@exemple.fr' },
      { kind: 'phone', value: '+33478123456' },
    ])
    // The same file again adds nothing (already listed), and is not an error.
    expect(await runDncCommand(user, form({ intent: 'import', file: new File([csv], 'list.csv') }))).toMatchObject({ ok: true, added: 0, report: { added: 0, alreadyListed: 3 } })
  })

  it('imports ordinary exports: a Windows-1252 `email;société` sheet and a HubSpot contact export, adding what they give and reporting each rejected line', async () => {
    const user = await createUser()
    const excel = new File([fs.readFileSync('tests/fixtures/dnc/excel-fr-semicolon.csv')], 'optouts.csv', { type: 'text/csv' })
    expect(await runDncCommand(user, form({ intent: 'import', file: excel }))).toEqual({
      ok: true,
      added: 3,
      report: {
        columns: ['email'],
        added: 3,
        alreadyListed: 0,
        duplicates: 1,
        rejected: 2,
        issues: [
          { line: 4, reason: 'empty', partial: false },
          { line: 5, reason: 'notEmail', value: 'jean.dupont@', column: 'email', partial: false },
        ],
        issuesLeftOut: 0,
      },
    })
    // The HubSpot file lists jean.dupont@boulangerie-martin.fr again: already on the list, not added twice.
    const hubspot = new File([fs.readFileSync('tests/fixtures/dnc/hubspot-contacts.csv')], 'hubspot-crm-exports-all-contacts.csv', { type: 'text/csv' })
    const result = await runDncCommand(user, form({ intent: 'import', file: hubspot }))
    expect(result).toMatchObject({ ok: true, added: 8, report: { columns: ['Email', 'Phone Number', 'Website URL'], added: 8, alreadyListed: 1, duplicates: 2, rejected: 2 } })
    expect(result.report?.issues.map((issue) => [issue.line, issue.reason, issue.partial])).toEqual([
      [4, 'empty', false],
      [5, 'notEmail', true],
      [10, 'notEmail', false],
    ])
    const listed = entriesOf(await readOwnDncList(user))
    expect(listed).toHaveLength(11)
    expect(listed).toEqual(expect.arrayContaining([{ kind: 'phone', value: '+33298000002' }, { kind: 'domain', value: 'kerbrat.bzh' }, { kind: 'email', value: 'gwen@atelier-breton.fr' }]))
    // Company names ("Martin, Fils & Cie", "Boulangerie Martin") and the other columns gave nothing.
    expect(listed.filter((entry) => !['email', 'phone', 'domain'].includes(entry.kind))).toEqual([])
  })

  it('a file where nothing can be read is refused with its report; the cap still holds for imports', async () => {
    const user = await createUser()
    const junk = new File(['Nom;Ville\nMartin;Brest\nDurand;Quimper\n'], 'names.csv', { type: 'text/csv' })
    expect(await runDncCommand(user, form({ intent: 'import', file: junk }))).toMatchObject({
      ok: false,
      messageKey: 'doNotContact.errors.nothingRead',
      report: { added: 0, rejected: 2, issues: [{ line: 2, reason: 'unreadable', value: 'Martin', column: 'Nom' }, { line: 3 }] },
    })
    expect(await runDncCommand(user, form({ intent: 'import', file: new File(['email\n\n;\n'], 'empty.csv') }))).toMatchObject({ ok: false, messageKey: 'doNotContact.errors.empty' })
    await admin.query(`insert into public.do_not_contact (user_id, kind, value) select $1, 'domain', 'd' || n || '.fr' from generate_series(1, $2::int) n`, [user.id, DNC_MAX_ENTRIES - 1])
    const two = new File(['email;société\na@b.fr;A\nc@d.fr;C\n'], 'two.csv', { type: 'text/csv' })
    expect(await runDncCommand(user, form({ intent: 'import', file: two }))).toMatchObject({ ok: false, messageKey: 'doNotContact.errors.tooMany', values: { room: 1 } })
    expect((await listDncPage(user, 1)).total).toBe(DNC_MAX_ENTRIES - 1)
  })

  it('the download neutralises formula-like addresses, and imports back to the same values', async () => {
    const user = await createUser()
    // Valid addresses a spreadsheet would run as formulas, one with a quote of its own, and data left as is.
    const sent = "=1+1@evil.fr\n+cmd@evil.fr\n-2+3@evil.fr\n'=x@evil.fr\n'pierre@exemple.fr\nautre.fr\n04 78 12 34 56"
    expect(await runDncCommand(user, form({ intent: 'paste', entries: sent }))).toMatchObject({ ok: true })
    const listed = await readOwnDncList(user)
    expect(listed.map((entry) => entry.value)).toEqual(expect.arrayContaining(['=1+1@evil.fr', '+cmd@evil.fr', "'=x@evil.fr", '+33478123456']))

    const csv = dncListCsv(listed)
    const values = csv.replace(/^\uFEFF/, '').trim().split('\n').slice(1).map((line) => line.split(',')[1] ?? '')
    expect(values).toEqual(expect.arrayContaining(["'=1+1@evil.fr", "'+cmd@evil.fr", "'-2+3@evil.fr", "''=x@evil.fr", "'pierre@exemple.fr", 'autre.fr', '+33478123456']))
    // No cell a spreadsheet would run.
    expect(values.filter((value) => /^[=+\-@]/.test(value) && value !== '+33478123456')).toEqual([])

    const other = await createUser()
    expect(await runDncCommand(other, form({ intent: 'import', file: new File([csv], 'do-not-contact.csv', { type: 'text/csv' }) }))).toMatchObject({ ok: true, added: listed.length, report: { rejected: 0 } })
    expect(entriesOf(await readOwnDncList(other))).toEqual(entriesOf(listed))
  })

  it('a "never export" business keeps the name and city of the user\'s lead, after the lead is gone too; the download names them and imports back exactly', async () => {
    const user = await createUser()
    const placeId = `fr-29212-${randomUUID().slice(0, 8)}`
    // A name that reads as a domain and a city a spreadsheet would run: the import must skip those columns.
    const { rows } = await admin.query(`insert into public.leads (user_id, source, place_id, name, city) values ($1, 'demo', $2, 'boulangerie-martin.fr', '=HYPERLINK("x")') returning id`, [
      user.id,
      placeId,
    ])
    // Another user's lead for the same business is not read (RLS, and the lookup is the user's own leads).
    const stranger = await createUser()
    await admin.query(`insert into public.leads (user_id, source, place_id, name, city) values ($1, 'demo', $2, 'Someone else', 'Elsewhere')`, [stranger.id, `${placeId}-x`])
    expect(await runDncCommand(user, form({ intent: 'add-business', value: `demo:${placeId}` }))).toMatchObject({ ok: true, added: 1 })
    expect(await runDncCommand(user, form({ intent: 'paste', entries: `demo:${placeId}-x\njean@exemple.fr` }))).toMatchObject({ ok: true, added: 2 })
    await admin.query('delete from public.leads where id = $1', [rows[0].id])

    const today = new Date().toISOString().slice(0, 10)
    const page = (await listDncPage(user, 1)).entries
    expect(page.map(({ kind, value, name, city }) => ({ kind, value, name, city }))).toEqual(
      expect.arrayContaining([
        { kind: 'business', value: `demo:${placeId}`, name: 'boulangerie-martin.fr', city: '=HYPERLINK("x")' },
        { kind: 'business', value: `demo:${placeId}-x`, name: null, city: null },
        { kind: 'email', value: 'jean@exemple.fr', name: null, city: null },
      ]),
    )
    expect(page.every((entry) => entry.createdAt.startsWith(today))).toBe(true)

    const listed = await readOwnDncList(user)
    const csv = dncListCsv(listed)
    expect(csv.replace(/^\uFEFF/, '').trim().split('\n')).toEqual([
      'kind,value,name,city,added',
      `business,demo:${placeId},boulangerie-martin.fr,"'=HYPERLINK(""x"")",${today}`,
      `business,demo:${placeId}-x,,,${today}`,
      `email,jean@exemple.fr,,,${today}`,
    ])
    const other = await createUser()
    expect(await runDncCommand(other, form({ intent: 'import', file: new File([csv], 'do-not-contact.csv', { type: 'text/csv' }) }))).toMatchObject({ ok: true, added: 3, report: { columns: ['value'], rejected: 0 } })
    expect(entriesOf(await readOwnDncList(other))).toEqual(entriesOf(listed))
  })

  it('refuses a binary file, an empty one, and a paste with unreadable lines (nothing added, lines named, text kept)', async () => {
    const user = await createUser()
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01])], 'photo.png')
    expect(await runDncCommand(user, form({ intent: 'import', file: png }))).toMatchObject({ ok: false, messageKey: 'doNotContact.errors.notCsv' })
    expect(await runDncCommand(user, form({ intent: 'import', file: new File([], 'empty.csv') }))).toMatchObject({ ok: false, messageKey: 'doNotContact.errors.noFile' })
    const sent = 'ok.fr\nhello world\n04 78 12 34 56\n???'
    expect(await runDncCommand(user, form({ intent: 'paste', entries: sent }))).toEqual({
      ok: false,
      intent: 'paste',
      messageKey: 'doNotContact.errors.rejected',
      values: { count: 2 },
      rejected: ['hello world', '???'],
      sent,
    })
    expect((await listDncPage(user, 1)).total).toBe(0)
  })

  it('holds at most the cap: a batch that would pass it adds nothing and says how much room is left', async () => {
    const user = await createUser()
    await admin.query(`insert into public.do_not_contact (user_id, kind, value) select $1, 'domain', 'd' || n || '.fr' from generate_series(1, $2::int) n`, [user.id, DNC_MAX_ENTRIES - 1])
    expect(await runDncCommand(user, form({ intent: 'paste', entries: 'a.fr\nb.fr' }))).toMatchObject({ ok: false, messageKey: 'doNotContact.errors.tooMany', values: { room: 1 } })
    // Entries already listed take no room.
    expect(await runDncCommand(user, form({ intent: 'paste', entries: 'd1.fr\na.fr' }))).toEqual({ ok: true, added: 1 })
    expect((await listDncPage(user, 1)).total).toBe(DNC_MAX_ENTRIES)
  })

  it("removes only the user's own entries, and 'never export' returns to an export page only", async () => {
    const [owner, other] = [await createUser(), await createUser()]
    await runDncCommand(owner, form({ intent: 'add', value: 'demo:p1' }))
    const [entry] = (await listDncPage(owner, 1)).entries
    expect(await runDncCommand(other, form({ intent: 'remove', id: entry!.id }))).toEqual({ ok: true, removed: false })
    expect(await runDncCommand(owner, form({ intent: 'remove', id: entry!.id }))).toEqual({ ok: true, removed: true })

    const exportPage = `/exports/${randomUUID()}?page=2`
    expect(await runDncCommand(owner, form({ intent: 'add-business', value: 'osm:node/42', returnTo: exportPage }))).toEqual({ ok: true, added: 1, returnTo: exportPage })
    expect(await runDncCommand(owner, form({ intent: 'add-business', value: 'osm:node/43', returnTo: 'https://evil.example/' }))).toEqual({ ok: true, added: 1, returnTo: undefined })
    expect(await runDncCommand(owner, form({ intent: 'add-business', value: 'someone@example.fr' }))).toMatchObject({ ok: false, messageKey: 'doNotContact.errors.unreadable' })
  })
})
