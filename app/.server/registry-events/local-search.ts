/**
 * The registry search over the local store (registry_establishments, filled by the daily Sirene import): what
 * `/companies` and a registry-first export read when the filters set a creation window (createdAfter, and the
 * watch's createdBefore), which recherche-entreprises cannot filter on. Same shape as the API's client
 * (registry/search.ts RegistrySearchClient), so the preview, the coverage panel and the export take either.
 *
 * Every query walks an index of the store: a place is read department by department ((department, created_on)) or
 * commune by commune ((commune, created_on)) — a region is its departments, France every department, a postcode the
 * communes it serves — within the creation window; the activity, headcount, legal form and state are then checked on
 * those rows. establishments() pages by keyset (created_on, siret), PAGE_SIZE rows at a time, so memory stays bounded
 * whatever the set. An establishment without a commune code is in no place, so it is never found (the feeds give one).
 * The store keeps no labels (RGE, Qualiopi…): registryFiltersSchema refuses labels with a creation window.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { adminDb, type Database } from '#app/.server/db.ts'
import { legalCategoryLabel, nafLabel } from '#app/.server/enrichment/registry-labels.ts'
import { LEGAL_CATEGORIES } from '#app/.server/enrichment/registry-legal-categories.ts'
import { franceData } from '#app/.server/geo/france.ts'
import type { LabelledEstablishment, RegistrySearchClient } from '#app/.server/registry/search.ts'
import { HEADCOUNT_BANDS, legalFormCodes, legalFormFamilyOf, type HeadcountBand, type RegistryFilters, type RegistryPlace } from '#app/domain/registry-search.ts'

const PAGE_SIZE = 500
/** Counted no further: the page says "100 000+". */
const COUNT_CAP = 100_000
const LEGAL_FORM_CATALOGUE = Object.keys(LEGAL_CATEGORIES)

interface StoreRow {
  siret: string
  siren: string
  name: string
  naf: string | null
  legal_form: string | null
  headcount: string | null
  postcode: string | null
  commune: string | null
  city: string | null
  address: string | null
  state: string
  /** Never null in a windowed read (created_on is not null); bySirets may give one. */
  created_on: string | null
  head_office: boolean
  source: string
}

/** One indexed part of a place: a department or a commune (plus the postcode a postcode search keeps). */
type PlacePart = { column: 'department' | 'commune'; code: string; postcode?: string }

/** The indexed parts a place is read in (see the module comment). */
function placeParts(place: RegistryPlace): PlacePart[] {
  const { departments, communes } = franceData()
  switch (place.kind) {
    case 'france':
      return departments.map((d) => ({ column: 'department', code: d.code }))
    case 'region':
      return departments.filter((d) => d.region === place.code).map((d) => ({ column: 'department', code: d.code }))
    case 'department':
      return [{ column: 'department', code: place.code }]
    case 'commune':
      return [{ column: 'commune', code: place.code }]
    case 'postcode':
      return communes.filter((c) => c.codesPostaux.includes(place.code)).map((c) => ({ column: 'commune', code: c.code, postcode: place.code }))
  }
}

/** What every part shares: the creation window, then the checks made on the rows the index gives. */
function commonConditions(filters: RegistryFilters): RawBuilder<unknown>[] {
  // Partial diffusion: the person's data may not be used for prospecting (registry_diffusion migration).
  const conditions: RawBuilder<unknown>[] = [sql`created_on is not null`, sql`diffusion = 'O'`]
  if (filters.createdAfter) conditions.push(sql`created_on > ${filters.createdAfter}::date`)
  if (filters.createdBefore) conditions.push(sql`created_on <= ${filters.createdBefore}::date`)
  if (filters.nafCodes.length) conditions.push(sql`naf = any(${[...new Set(filters.nafCodes)]}::text[])`)
  if (filters.headcountBands.length) {
    const bands = filters.headcountBands.filter((band) => band !== 'NN')
    // NN ("non-employing or not filled in") is a missing band in the store.
    conditions.push(filters.headcountBands.includes('NN') ? sql`(headcount is null or headcount = any(${bands}::text[]))` : sql`headcount = any(${bands}::text[])`)
  }
  if (filters.legalForms.length) conditions.push(sql`legal_form = any(${legalFormCodes(filters.legalForms, LEGAL_FORM_CATALOGUE)}::text[])`)
  if (filters.activeOnly) conditions.push(sql`state = 'A'`)
  return conditions
}

function partCondition(part: PlacePart): RawBuilder<unknown> {
  const column = sql.ref(part.column)
  return part.postcode ? sql`${column} = ${part.code} and postcode = ${part.postcode}` : sql`${column} = ${part.code}`
}

/** The whole place at once (= any over the indexed column), for the count and the preview's first page. */
function placeCondition(parts: readonly PlacePart[]): RawBuilder<unknown> {
  if (parts.length === 0) return sql`false`
  const column = sql.ref(parts[0]!.column)
  const postcode = parts[0]!.postcode
  const codes = parts.map((part) => part.code)
  return postcode ? sql`${column} = any(${codes}::text[]) and postcode = ${postcode}` : sql`${column} = any(${codes}::text[])`
}

const COLUMNS = sql`siret, siren, name, naf, legal_form, headcount, postcode, commune, city, address, state, created_on::text as created_on, head_office, source`

function text(value: string | null): string | null {
  return value && value.trim() ? value.trim() : null
}

/** A store row as the registry search's establishment (what the API would say of it, minus what the store lacks). */
function toEstablishment(row: StoreRow): LabelledEstablishment {
  const name = text(row.name)
  const soleTrader = row.legal_form?.startsWith('1') ?? false
  const band = row.headcount && (HEADCOUNT_BANDS as readonly string[]).includes(row.headcount) ? (row.headcount as HeadcountBand) : null
  return {
    siren: row.siren,
    siret: row.siret,
    name,
    address: text(row.address),
    postalCode: text(row.postcode),
    communeCode: text(row.commune),
    city: text(row.city),
    // The Sirene flux carries Lambert coordinates the import does not keep: matching uses the postcode and the name.
    latitude: null,
    longitude: null,
    activityCode: text(row.naf),
    activityCodeNaf25: null,
    headcountBand: band,
    legalFormCode: text(row.legal_form),
    legalFormFamily: legalFormFamilyOf(text(row.legal_form)),
    creationDate: row.created_on,
    active: row.state === 'A',
    headOffice: row.head_office,
    // The store keeps no directors; a sole trader never lists any anyway.
    directors: [],
    // A sole trader whose name the feed withheld (partial diffusion) is stored nameless.
    personalDataWithheld: soleTrader && name === null,
    demo: row.source === 'demo',
    activityLabel: nafLabel(text(row.naf)),
    legalFormLabel: legalCategoryLabel(text(row.legal_form)),
  }
}

export interface LocalRegistrySearch extends RegistrySearchClient {
  /** The stored establishments of these SIRETs (the watch's retries), whatever their creation day. */
  bySirets(sirets: readonly string[]): Promise<LabelledEstablishment[]>
}

/** The store as a registry search client; `db` default the app's privileged connection (the store has no user rows). */
export function createLocalRegistrySearch({ db }: { db?: Kysely<Database> } = {}): LocalRegistrySearch {
  const database = () => db ?? adminDb()
  const where = (conditions: readonly RawBuilder<unknown>[]) => sql.join(conditions, sql` and `)

  async function count(filters: RegistryFilters, parts: readonly PlacePart[]): Promise<number> {
    const { rows } = await sql<{ count: number }>`
      select count(*)::int as count from (
        select 1 from public.registry_establishments where ${where([placeCondition(parts), ...commonConditions(filters)])} limit ${COUNT_CAP + 1}
      ) counted`.execute(database())
    return rows[0]?.count ?? 0
  }

  return {
    async page(filters, pageNumber, { perPage = 25, signal } = {}) {
      signal?.throwIfAborted()
      const parts = placeParts(filters.place)
      const size = Math.min(100, Math.max(1, Math.floor(perPage)))
      const total = await count(filters, parts)
      // Newest first: what a "created after" search is for.
      const { rows } = await sql<StoreRow>`
        select ${COLUMNS} from public.registry_establishments
         where ${where([placeCondition(parts), ...commonConditions(filters)])}
         order by created_on desc, siret
         limit ${size} offset ${(Math.max(1, Math.floor(pageNumber)) - 1) * size}`.execute(database())
      return { total: Math.min(total, COUNT_CAP), capped: total > COUNT_CAP, establishments: rows.map(toEstablishment) }
    },

    async *establishments(filters, { limit, signal }) {
      let left = Math.max(0, Math.floor(limit))
      const common = commonConditions(filters)
      for (const part of placeParts(filters.place)) {
        let after: { created: string; siret: string } | null = null
        while (left > 0) {
          signal?.throwIfAborted()
          const keyset: RawBuilder<unknown>[] = after ? [sql`(created_on, siret) > (${after.created}::date, ${after.siret})`] : []
          const { rows }: { rows: StoreRow[] } = await sql<StoreRow>`
            select ${COLUMNS} from public.registry_establishments
             where ${where([partCondition(part), ...common, ...keyset])}
             order by created_on, siret
             limit ${Math.min(PAGE_SIZE, left)}`.execute(database())
          for (const row of rows) {
            left--
            yield toEstablishment(row)
          }
          const last: StoreRow | undefined = rows.at(-1)
          if (!last || rows.length < PAGE_SIZE) break
          after = { created: last.created_on!, siret: last.siret }
        }
        if (left <= 0) return
      }
    },

    async bySirets(sirets) {
      const wanted = [...new Set(sirets.filter((siret) => /^\d{14}$/.test(siret)))]
      if (wanted.length === 0) return []
      const { rows } = await sql<StoreRow>`
        select ${COLUMNS} from public.registry_establishments where siret = any(${wanted}::text[]) order by siret`.execute(database())
      return rows.map(toEstablishment)
    },
  }
}

/** The latest day the Sirene import finished (YYYY-MM-DD), or null when nothing was imported yet. */
export async function registryStoreFreshness(db: Kysely<Database> = adminDb()): Promise<string | null> {
  const { rows } = await sql<{ day: string | null }>`
    select max(day)::text as day from public.registry_imports where source = 'sirene' and status = 'done'`.execute(db)
  return rows[0]?.day ?? null
}
