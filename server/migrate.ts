import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'

const ROOT = path.resolve(import.meta.dirname, '..')
const MIGRATIONS_DIR = path.join(ROOT, 'supabase', 'migrations')
const BOOTSTRAP_SQL = path.join(ROOT, 'supabase', 'bootstrap.sql')

/**
 * Applies supabase/migrations in name order, recording each in
 * supabase_migrations.schema_migrations exactly as the Supabase CLI does, so a database
 * migrated here can later be managed with `supabase db push`.
 * `bootstrap` first runs the local stand-in for what hosted Supabase provides.
 */
export async function migrate(databaseUrl: string, { bootstrap }: { bootstrap: boolean }) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    // Two processes starting at once must not apply the same migration twice.
    await client.query('select pg_advisory_lock(727274)')
    if (bootstrap) await client.query(fs.readFileSync(BOOTSTRAP_SQL, 'utf8'))
    await client.query(`
      create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (
        version text primary key, statements text[], name text
      );`)
    const applied = new Set(
      (await client.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map(
        (row) => row.version,
      ),
    )
    const files = fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((file) => file.endsWith('.sql'))
      .sort()
    const ran: string[] = []
    for (const file of files) {
      const [version = '', ...rest] = file.replace(/\.sql$/, '').split('_')
      if (applied.has(version)) continue
      const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8')
      await client.query('begin')
      try {
        await client.query(sql)
        await client.query(
          'insert into supabase_migrations.schema_migrations (version, statements, name) values ($1, $2, $3)',
          [version, [sql], rest.join('_')],
        )
        await client.query('commit')
      } catch (error) {
        await client.query('rollback')
        throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error })
      }
      ran.push(file)
    }
    return ran
  } finally {
    await client.query('select pg_advisory_unlock(727274)').catch(() => {})
    await client.end()
  }
}
