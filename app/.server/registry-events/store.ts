/**
 * The registry events store (supabase/migrations/20261204090000_registry_events.sql): writes for the feeds, reads
 * for the risk shield. Every write is idempotent: an establishment keeps its newest processing, an announcement is
 * keyed by its BODACC id, so replaying a day or a file changes nothing.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import { departmentOfCommune, type RegistryEstablishmentRecord } from '#app/domain/registry-establishment.ts'
import { type BodaccAnnouncement, type RegistryRisk, riskStatus } from '#app/domain/registry-risk.ts'

type EstablishmentSource = 'flux' | 'stock' | 'demo'

/** Rows per statement: well under Postgres's 65 535 parameters (16 columns). */
const WRITE_CHUNK = 2_000

/** Stores establishments; one already stored with a newer processing is left as it is. How many were written. */
export async function upsertEstablishments(db: Kysely<Database>, records: readonly RegistryEstablishmentRecord[], source: EstablishmentSource): Promise<number> {
  let written = 0
  for (let start = 0; start < records.length; start += WRITE_CHUNK) {
    const chunk = dedupeBy(records.slice(start, start + WRITE_CHUNK), (record) => record.siret)
    const result = await db
      .insertInto('registry_establishments')
      .values(
        chunk.map((record) => ({
          siret: record.siret,
          siren: record.siren,
          name: record.name,
          naf: record.naf,
          legal_form: record.legalForm,
          headcount: record.headcount,
          postcode: record.postcode,
          commune: record.commune,
          department: departmentOfCommune(record.commune),
          city: record.city,
          address: record.address,
          state: record.state,
          created_on: record.createdOn,
          head_office: record.headOffice,
          processed_at: record.processedAt,
          source,
          diffusion: record.partialDiffusion ? 'P' : 'O',
        })),
      )
      .onConflict((conflict) =>
        conflict.column('siret').doUpdateSet((eb) => ({
          siren: eb.ref('excluded.siren'),
          name: eb.ref('excluded.name'),
          naf: eb.ref('excluded.naf'),
          legal_form: eb.ref('excluded.legal_form'),
          headcount: eb.ref('excluded.headcount'),
          postcode: eb.ref('excluded.postcode'),
          commune: eb.ref('excluded.commune'),
          department: eb.ref('excluded.department'),
          city: eb.ref('excluded.city'),
          address: eb.ref('excluded.address'),
          state: eb.ref('excluded.state'),
          created_on: eb.ref('excluded.created_on'),
          head_office: eb.ref('excluded.head_office'),
          processed_at: eb.ref('excluded.processed_at'),
          source: eb.ref('excluded.source'),
          diffusion: eb.ref('excluded.diffusion'),
          imported_at: sql`now()`,
        })).where('registry_establishments.processed_at', '<', (eb) => eb.ref('excluded.processed_at')),
      )
      .executeTakeFirst()
    written += Number(result.numInsertedOrUpdatedRows ?? 0)
  }
  return written
}

/** Stores BODACC announcements by id (a re-import rewrites the same row). How many were written. */
export async function upsertAnnouncements(db: Kysely<Database>, announcements: readonly BodaccAnnouncement[]): Promise<number> {
  let written = 0
  for (let start = 0; start < announcements.length; start += WRITE_CHUNK) {
    const chunk = dedupeBy(announcements.slice(start, start + WRITE_CHUNK), (announcement) => announcement.id)
    const result = await db
      .insertInto('registry_announcements')
      .values(chunk.map((a) => ({ id: a.id, sirens: a.sirens, published_on: a.publishedOn, family: a.family, announcement: JSON.stringify(a) })))
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet((eb) => ({
          sirens: eb.ref('excluded.sirens'),
          published_on: eb.ref('excluded.published_on'),
          family: eb.ref('excluded.family'),
          announcement: eb.ref('excluded.announcement'),
        })),
      )
      .executeTakeFirst()
    written += Number(result.numInsertedOrUpdatedRows ?? 0)
  }
  return written
}

/** The last of each key wins (one statement cannot touch a row twice). */
function dedupeBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  return [...new Map(items.map((item) => [key(item), item])).values()]
}

interface EntityFacts {
  active: boolean
  soleTrader: boolean | undefined
  restartedOn: string | null
}

/**
 * What Sirene says of each company, from its stored establishments: active when one is, a sole trader by its legal
 * form, and its latest establishment creation (a radiated sole trader who opened again).
 */
async function entityFacts(db: Kysely<Database>, sirens: readonly string[]): Promise<Map<string, EntityFacts>> {
  const { rows } = await sql<{ siren: string; active: boolean; sole_trader: boolean | null; restarted_on: string | null }>`
    select siren, bool_or(state = 'A') as active, bool_or(legal_form = '1000') as sole_trader, max(created_on)::text as restarted_on
      from public.registry_establishments
     where siren = any(${sirens}::text[])
     group by siren`.execute(db)
  return new Map(rows.map((row) => [row.siren, { active: row.active, soleTrader: row.sole_trader ?? undefined, restartedOn: row.restarted_on }]))
}

/**
 * Each company's risk today, by SIREN, from its stored announcements and establishments; a SIREN with no
 * announcement is absent (no risk known). `today` is YYYY-MM-DD, the UTC day by default (the ten-year expiry counts
 * back from it).
 */
export async function readRisks(db: Kysely<Database>, sirens: readonly string[], today = new Date().toISOString().slice(0, 10)): Promise<Map<string, RegistryRisk>> {
  const wanted = new Set(sirens.filter((siren) => /^\d{9}$/.test(siren)))
  if (wanted.size === 0) return new Map()
  const rows = await db
    .selectFrom('registry_announcements')
    .select(['sirens', 'announcement'])
    .where(sql<boolean>`sirens && ${[...wanted]}::text[]`)
    .execute()
  if (rows.length === 0) return new Map()
  const bySiren = new Map<string, BodaccAnnouncement[]>()
  for (const row of rows) {
    const announcement = row.announcement as unknown as BodaccAnnouncement
    for (const siren of row.sirens) if (wanted.has(siren)) bySiren.set(siren, [...(bySiren.get(siren) ?? []), announcement])
  }
  const facts = await entityFacts(db, [...bySiren.keys()])
  const risks = new Map<string, RegistryRisk>()
  for (const [siren, announcements] of bySiren) {
    const entity = facts.get(siren)
    risks.set(siren, riskStatus(announcements, { today, entityActive: entity?.active ?? false, soleTrader: entity?.soleTrader, restartedOn: entity?.restartedOn ?? null }))
  }
  return risks
}
