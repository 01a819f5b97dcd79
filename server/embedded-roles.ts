// Who may log in to the embedded cluster: the superuser with its generated password (migrations only), and the
// app's own login role, which is no superuser and owns no table of the app, so a flaw in the app cannot reach the
// server's files or programs (COPY ... PROGRAM, ALTER SYSTEM) nor change the schema.
import pg from 'pg'
import { PGBOSS_SCHEMA } from '#app/.server/exports/queue.ts'
import { APP_ROLE, DATABASE, LEGACY_SUPERUSER_PASSWORD, SUPERUSER } from './postgres-secrets.ts'

const INVALID_PASSWORD = '28P01'

async function connect(options: { port: number; user: string; password: string; database: string }): Promise<pg.Client> {
  const client = new pg.Client({ host: '127.0.0.1', ...options })
  client.on('error', () => {}) // a cluster stopping under an open admin client is reported by the supervisor
  await client.connect()
  return client
}

/**
 * A superuser connection with the generated password. A cluster made before passwords were generated still has
 * the old default one: it is replaced here. The password file is written before this runs, so a crash between
 * the two leaves a state this function repairs on the next start (the old password is tried again).
 */
export async function connectSuperuser({ port, password, database = 'postgres' }: { port: number; password: string; database?: string }): Promise<pg.Client> {
  try {
    return await connect({ port, user: SUPERUSER, password, database })
  } catch (error) {
    if ((error as { code?: string }).code !== INVALID_PASSWORD) throw error
    const client = await connect({ port, user: SUPERUSER, password: LEGACY_SUPERUSER_PASSWORD, database }).catch(() => {
      throw new Error(`The embedded Postgres refused the superuser password kept in DATA_DIR (and the old default one)`, { cause: error })
    })
    await client.query(`alter role ${SUPERUSER} password ${client.escapeLiteral(password)}`)
    return client
  }
}

/**
 * The app database and the app's login role, with the password kept in DATA_DIR (set on every start, so the file
 * is the truth). BYPASSRLS keeps the design of app/.server/db.ts: its privileged connection (adminDb: worker,
 * billing, webhooks) sees every row, as hosted Supabase's `postgres` role does, while user requests switch to
 * `authenticated` with `set local role`, where row-level security applies. CREATE on the database lets pg-boss
 * create its schema. Role memberships and table grants come from supabase/bootstrap.sql (the roles live there).
 */
export async function ensureAppRole(superuser: pg.Client, password: string): Promise<void> {
  const database = await superuser.query('select 1 from pg_database where datname = $1', [DATABASE])
  if (database.rowCount === 0) await superuser.query(`create database ${DATABASE}`)
  const role = await superuser.query('select 1 from pg_roles where rolname = $1', [APP_ROLE])
  const attributes = `login nosuperuser nocreatedb nocreaterole noreplication inherit bypassrls password ${superuser.escapeLiteral(password)}`
  await superuser.query(`${role.rowCount === 0 ? 'create' : 'alter'} role ${APP_ROLE} with ${attributes}`)
  await superuser.query(`grant connect, create, temporary on database ${DATABASE} to ${APP_ROLE}`)
}

/**
 * The pg-boss schema of a cluster where the superuser ran the queue: handed to the app role, which now runs pg-boss
 * (pg-boss creates a table per queue, and upgrades its schema, so it must own it). Nothing when it already does.
 */
export async function adoptPgBossSchema(superuser: pg.Client): Promise<void> {
  const owner = await superuser.query<{ owner: string }>('select nspowner::regrole::text as owner from pg_namespace where nspname = $1', [PGBOSS_SCHEMA])
  if (!owner.rows[0] || owner.rows[0].owner === APP_ROLE) return
  await superuser.query(`
    do $$
    declare
      object record;
    begin
      execute format('alter schema %I owner to %I', '${PGBOSS_SCHEMA}', '${APP_ROLE}');
      -- Tables first: their serial and identity sequences follow them.
      for object in
        select c.oid::regclass as name, c.relkind from pg_class c
        where c.relnamespace = '${PGBOSS_SCHEMA}'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
        order by c.relkind = 'S'
      loop
        if object.relkind = 'S' and exists (select 1 from pg_class where oid = object.name and relowner = '${APP_ROLE}'::regrole) then continue; end if;
        execute format('alter %s %s owner to %I',
          case object.relkind when 'S' then 'sequence' when 'v' then 'view' when 'm' then 'materialized view' when 'f' then 'foreign table' else 'table' end,
          object.name, '${APP_ROLE}');
      end loop;
      for object in select p.oid::regprocedure as name from pg_proc p where p.pronamespace = '${PGBOSS_SCHEMA}'::regnamespace loop
        execute format('alter routine %s owner to %I', object.name, '${APP_ROLE}');
      end loop;
      -- Enums, domains and ranges (a table's row type and the array types follow their owner).
      for object in select t.oid::regtype as name, t.typtype from pg_type t
        where t.typnamespace = '${PGBOSS_SCHEMA}'::regnamespace and t.typtype in ('e', 'd', 'r') loop
        execute format('alter %s %s owner to %I', case when object.typtype = 'd' then 'domain' else 'type' end, object.name, '${APP_ROLE}');
      end loop;
    end $$`)
}
