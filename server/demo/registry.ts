/**
 * A local stand-in for the French company registry (recherche-entreprises.api.gouv.fr `GET /search`), so the
 * admin_fr_info enrichment runs offline under `npm start` with the demo lead source. Every answer is deterministic
 * fake data, labelled as such: each company carries `"demo": true` and the response `"demo": true`.
 *
 *   GET /search?q=<name>&code_postal=&departement=&activite_principale=&page=&per_page=
 *       → one company registered under the name asked plus a word ("… ET FILS": a name match alone is never
 *         certain), located at the postcode asked (in the commune that postcode belongs to), doing the first NAF code
 *         asked (the searched category's, see registry.ts), with a Luhn-valid SIREN/SIRET derived from name +
 *         postcode. About one name in ten has no match (empty results) and about one in twenty is closed (C).
 *   GET /search?q=<9 or 14 digits>   → the company with that SIREN / SIRET (filters ignored, as the real API does):
 *       the one a name search made, when this process made it, or a creation of the event history
 *       (registry-events-history.ts: its SIRENs start with 2), else one of its own
 *   GET /search?activite_principale=&region=|departement=|code_commune=|code_postal=&tranche_effectif_salarie=
 *       &nature_juridique=&etat_administratif=&est_rge=true…&page=&per_page=   (no q: the registry-first search)
 *       → the establishments of a universe coherent with the demo map (registry-universe.ts), filtered, paged
 *   anything else → 404; a search without q nor filter → 400 (the real API's answer)
 *
 * Run alone with `npx tsx server/demo/registry.ts` (PORT, HOST).
 */
import { pathToFileURL } from 'node:url'
import { LRUCache } from 'lru-cache'
import { hashString } from '#app/.server/sources/demo/prng.ts'
import { luhnValid } from '#app/.server/sources/demo/identity.ts'
import { type DemoServer, type DemoServerOptions, serveDemo, stopOnSignals } from './serve.ts'
import { env } from '#app/.server/env.server.ts'
import type { RegistryPlace } from '#app/domain/registry-search.ts'
import { demoActivityOfName, demoHistoryOfName, demoRegistryUniverse, nameSeed, type MakeCompany } from './registry-universe.ts'
import { demoCreationOfSiren } from './registry-events-history.ts'
import { type Company, makeCompany, normalize } from './registry-company.ts'

/** Options of the shared demo server; the port is remembered as "demo-registry". */
export type DemoRegistryOptions = DemoServerOptions
/** `url` (no trailing slash) is what REGISTRY_URL takes. */
export type DemoRegistry = DemoServer

interface Reply {
  status: number
  body: unknown
}

/**
 * What each name search generated, by SIREN: the demo has no register to look a SIREN up in, so it remembers the
 * companies it made (in this process, bounded).
 */
const namedCompanies = new LRUCache<string, Parameters<MakeCompany>[0]>({ max: 100_000 })

export function routeRegistryRequest(method: string, rawUrl: string): Reply {
  if (method !== 'GET') return { status: 405, body: { erreur: 'Method not allowed' } }
  const url = new URL(rawUrl, 'http://registry.local')
  if (url.pathname !== '/search') return { status: 404, body: { erreur: 'Not found' } }
  const q = (url.searchParams.get('q') ?? '').trim()
  if (!url.searchParams.has('q') && FILTERS.some((name) => url.searchParams.has(name))) return filteredSearch(url.searchParams)
  if (q.length < 3) return { status: 400, body: { erreur: 'Veuillez indiquer au moins 3 caractères dans le paramètre q' } }
  const perPage = Math.min(25, Math.max(1, Number(url.searchParams.get('per_page') ?? 10) || 10))
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1)
  const digits = q.replace(/\s+/g, '')
  let results: Company[] = []
  if (/^\d{9}$|^\d{14}$/.test(digits)) {
    if (luhnValid(digits.slice(0, 9))) {
      // A company a name search made is found again by its identifiers (a list of SIRETs read from an export).
      // So is a company the event history created (its SIREN says which), with the name and day the flux gave it.
      const known = namedCompanies.get(digits.slice(0, 9)) ?? demoCreationOfSiren(digits.slice(0, 9))
      const siret = digits.length === 14 ? digits : undefined
      results = [known ? makeCompany({ ...known, ...(siret ? { siret } : {}) }) : makeCompany({ name: '', postalCode: null, naf: null, seed: hashString(`siren|${digits.slice(0, 9)}`), siret: digits })]
    }
  } else {
    const postalCode = url.searchParams.get('code_postal')?.split(',')[0]?.trim() || null
    // No activity asked (a list of names): a business the demo map shows there is registered under its sector's.
    const naf = url.searchParams.get('activite_principale')?.split(',')[0]?.trim() || (postalCode ? demoActivityOfName(q, postalCode, normalize) : null)
    const seed = nameSeed(q, postalCode, normalize)
    if (seed % 10 !== 0) {
      // A map business the event history created or closed reads so here too.
      const history = postalCode ? demoHistoryOfName(q, postalCode, normalize) : {}
      const company = makeCompany({ name: q, postalCode, naf, seed, ...history })
      namedCompanies.set(String(company.siren), { name: q, postalCode, naf, seed, ...history })
      results = [company]
    }
  }
  const paged = page === 1 ? results.slice(0, perPage) : []
  return {
    status: 200,
    body: { demo: true, results: paged, total_results: results.length, page, per_page: perPage, total_pages: results.length ? 1 : 0 },
  }
}

/** The parameters of the registry-first search the demo answers (others are ignored, as unknown ones by the API). */
const FILTERS = [
  'activite_principale',
  'region',
  'departement',
  'code_commune',
  'code_postal',
  'tranche_effectif_salarie',
  'nature_juridique',
  'etat_administratif',
  'est_rge',
  'est_qualiopi',
  'est_ess',
  'est_bio',
  'est_organisme_formation',
  'est_siae',
  'est_societe_mission',
  'est_patrimoine_vivant',
] as const

function listParam(params: URLSearchParams, name: string): string[] {
  return (params.get(name) ?? '')
    .split(',')
    .map((value) => value.trim().toUpperCase())
    .filter(Boolean)
}

/** The narrowest place asked (the real API accepts lists; the demo reads the first value). */
function placeParam(params: URLSearchParams): RegistryPlace {
  const first = (name: string) => listParam(params, name)[0]
  const postcode = first('code_postal')
  if (postcode) return { kind: 'postcode', code: postcode }
  const commune = first('code_commune')
  if (commune) return { kind: 'commune', code: commune }
  const department = first('departement')
  if (department) return { kind: 'department', code: department }
  const region = first('region')
  return region ? { kind: 'region', code: region } : { kind: 'france' }
}

function filteredSearch(params: URLSearchParams): Reply {
  const perPage = Math.min(25, Math.max(1, Number(params.get('per_page') ?? 10) || 10))
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1)
  const naf = listParam(params, 'activite_principale')
  const bands = new Set(listParam(params, 'tranche_effectif_salarie'))
  const forms = new Set(listParam(params, 'nature_juridique'))
  const state = params.get('etat_administratif')?.trim().toUpperCase() || null
  const labels = FILTERS.filter((name) => name.startsWith('est_') && params.get(name) === 'true')
  const matches = demoRegistryUniverse(naf, placeParam(params), makeCompany, normalize).filter((company) => {
    const complements = (company.complements ?? {}) as Record<string, unknown>
    return (
      (bands.size === 0 || bands.has(String(company.tranche_effectif_salarie))) &&
      (forms.size === 0 || forms.has(String(company.nature_juridique))) &&
      (state === null || company.etat_administratif === state) &&
      labels.every((label) => complements[label] === true)
    )
  })
  // As the real API: at most 10 000 reachable results, total_results capped there.
  const total = Math.min(matches.length, 10_000)
  const results = page * perPage <= 10_000 ? matches.slice((page - 1) * perPage, page * perPage) : []
  return { status: 200, body: { demo: true, results, total_results: total, page, per_page: perPage, total_pages: Math.ceil(total / perPage) } }
}

export function startDemoRegistry(options: DemoRegistryOptions = {}): Promise<DemoRegistry> {
  return serveDemo('demo-registry', options, (method, path) => {
    const reply = routeRegistryRequest(method, path)
    return { status: reply.status, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(reply.body) }
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const registry = await startDemoRegistry({ port: env.PORT ?? 0, host: env.HOST })
  console.log(`Demo registry at ${registry.url} (set REGISTRY_URL=${registry.url})`)
  stopOnSignals(registry)
}
