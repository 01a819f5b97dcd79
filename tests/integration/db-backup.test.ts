// `npm run db:backup` / `npm run db:restore` (issue 23, item 6) on an embedded cluster of its own: a user, an export
// with leads and ledger rows; an online backup; the data changed and deleted; the restore refused while the
// database is in use; then restored and started again: everything is back, migrations table included.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { afterAll, expect, test } from 'vitest'
import { backupEmbedded, restoreEmbedded } from '#server/embedded-backup.ts'
import { startEmbeddedPostgres, type EmbeddedDatabase } from '#server/embedded-postgres.ts'
import { migrate } from '#server/migrate.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const work = path.join(ROOT, '.data', `db-backup-${process.pid}`)
const dataDir = path.join(work, 'data')
const backupDir = path.join(work, 'backups', 'first')
let db: EmbeddedDatabase | undefined
afterAll(async () => {
  await db?.stop().catch(() => {})
  fs.rmSync(work, { recursive: true, force: true })
})

async function withAdmin<T>(url: string, fn: (admin: pg.Pool) => Promise<T>): Promise<T> {
  const admin = new pg.Pool({ connectionString: url, max: 2 })
  try {
    return await fn(admin)
  } finally {
    await admin.end()
  }
}

async function snapshot(admin: pg.Pool, userId: string) {
  const { rows } = await admin.query(
    `select (select count(*)::int from auth.users where id = $1) as users,
            (select count(*)::int from public.exports where user_id = $1) as exports,
            (select count(*)::int from public.leads where user_id = $1) as leads,
            (select count(*)::int from public.export_leads where user_id = $1) as export_leads,
            (select json_agg(json_build_object('delta', delta, 'reason', reason, 'balance_after', balance_after) order by id) from public.credit_ledger where user_id = $1) as ledger,
            (select array_agg(version order by version) from supabase_migrations.schema_migrations) as migrations`,
    [userId],
  )
  return rows[0] as { users: number; exports: number; leads: number; export_leads: number; ledger: unknown[]; migrations: string[] }
}

test('an online backup restores users, exports, leads, ledger and the migrations table as they were', { timeout: 180_000 }, async () => {
  fs.rmSync(work, { recursive: true, force: true })
  db = await startEmbeddedPostgres({ dataDir })
  await migrate(db.superuserUrl, { bootstrap: true })
  const superuserUrl = db.superuserUrl

  const { userId, before } = await withAdmin(superuserUrl, async (admin) => {
    const userId = await createUserWithCredits(admin, 40)
    const exportId = (
      await admin.query(
        `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, city, business_types)
         values ($1, 'backup', 'completed', 'completed', 'completed', $2, $3, 'France', 'Lyon', '{boulangerie}') returning id`,
        [userId, { sector: 'boulangerie', country: 'France', countryCode: 'FR', city: 'Lyon', lang: 'fr' }, { email: true }],
      )
    ).rows[0].id as string
    await admin.query(
      `with inserted as (
         insert into public.leads (user_id, source, place_id, name, city, country_code)
         select $1, 'osm', 'node/' || g, 'Boulangerie ' || g, 'Lyon', 'FR' from generate_series(1, 5) g returning id, place_id)
       insert into public.export_leads (export_id, lead_id, user_id, position, email_status)
       select $2, id, $1, substr(place_id, 6)::int, 'success' from inserted`,
      [userId, exportId],
    )
    await admin.query(`select public.apply_credit_change($1, -3, 'adjustment', 'test:backup-debit')`, [userId])
    return { userId, before: await snapshot(admin, userId) }
  })
  expect(before).toMatchObject({ users: 1, exports: 1, leads: 5, export_leads: 5 })
  expect(before.ledger.length).toBeGreaterThanOrEqual(2)

  // Online: the cluster keeps running (and serving) during the backup.
  const manifest = await backupEmbedded({ dataDir, target: backupDir })
  expect(manifest).toMatchObject({ online: true, migrations: before.migrations })
  expect(fs.statSync(backupDir).mode & 0o077).toBe(0)

  await withAdmin(superuserUrl, async (admin) => {
    await admin.query(`select public.apply_credit_change($1, 10, 'adjustment', 'test:after-backup')`, [userId])
    await admin.query('delete from public.exports where user_id = $1', [userId])
    await admin.query('delete from public.leads where user_id = $1', [userId])
    await admin.query('delete from supabase_migrations.schema_migrations where version = (select max(version) from supabase_migrations.schema_migrations)')
    expect(await snapshot(admin, userId)).toMatchObject({ exports: 0, leads: 0, export_leads: 0 })
  })

  // The app (here: this test's cluster) holds the database: refused, nothing touched.
  await expect(restoreEmbedded({ dataDir, source: backupDir })).rejects.toThrow(/in use .*--force/)

  await db.stop()
  db = undefined
  const { keptAt } = await restoreEmbedded({ dataDir, source: backupDir })
  expect(keptAt && fs.existsSync(keptAt)).toBeTruthy()

  // npm start's path: the same data directory, the passwords kept beside it.
  db = await startEmbeddedPostgres({ dataDir })
  const after = await withAdmin(db.superuserUrl, (admin) => snapshot(admin, userId))
  expect(after).toEqual(before)
  // The app's role logs in with the restored password and sees the restored rows through its grants.
  await withAdmin(db.url, async (app) => {
    const { rows } = await app.query('select count(*)::int as leads from public.leads where user_id = $1', [userId])
    expect(rows[0].leads).toBe(5)
  })
})

test('the scripts refuse a hosted DATABASE_URL, and restore needs a path', async () => {
  const run = promisify(execFile)
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx')
  const env = { ...process.env, DATABASE_URL: 'postgres://someone@db.example.com/postgres', DATA_DIR: dataDir }
  await expect(run(tsx, ['scripts/db-backup.ts'], { cwd: ROOT, env })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('docs/deployment.md, "Backups"') })
  const { DATABASE_URL: _unused, ...local } = env
  await expect(run(tsx, ['scripts/db-restore.ts'], { cwd: ROOT, env: local })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: npm run db:restore') })
})
