/**
 * A local stand-in for the French company registry (recherche-entreprises.api.gouv.fr `GET /search`), so the
 * admin_fr_info enrichment runs offline under `npm start` with the demo lead source. Every answer is deterministic
 * fake data, labelled as such: each company carries `"demo": true` and the response `"demo": true`.
 *
 *   GET /search?q=<name>&code_postal=&departement=&activite_principale=&page=&per_page=
 *       → one company named as asked (upper case), located at the postcode asked, with a Luhn-valid SIREN/SIRET
 *         derived from name + postcode. About one name in ten has no match (empty results), like real life.
 *   GET /search?q=<9 or 14 digits>   → the company with that SIREN / SIRET (filters ignored, as the real API does)
 *   anything else → 404; a search without q → 400 (the real API's answer)
 *
 * Run alone with `npx tsx server/demo/registry.ts` (PORT, HOST).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { hashString, Rng } from '#app/.server/sources/demo/prng.ts'
import { completeLuhn, luhnValid } from '#app/.server/sources/demo/identity.ts'
import { listenOnRememberedPort } from '../remembered-port.ts'
import { foldToAscii } from '#app/domain/text.ts'
import { env } from '#app/.server/env.server.ts'

export interface DemoRegistryOptions {
  /** 0 or undefined: the port remembered in `dataDir` when given and free, else any free port. */
  port?: number
  /** Remember the port in `<dataDir>/ports.json` ("demo-registry") and reuse it on the next start (server/remembered-port.ts). */
  dataDir?: string
  host?: string
  /** Delay before every answer (benchmarks). */
  latencyMs?: number
  onRequest?: (request: { method: string; path: string }) => void
}

export interface DemoRegistry {
  /** Base URL without trailing slash: set it as REGISTRY_URL. */
  url: string
  stop: () => Promise<void>
}

const LEGAL_FORMS = [
  ['5499', 'Société à responsabilité limitée (sans autre indication)', 'SARL'],
  ['5710', 'SAS, société par actions simplifiée', 'SAS'],
  ['5498', 'SARL unipersonnelle', 'EURL'],
  ['1000', 'Entrepreneur individuel', 'EI'],
] as const
const SIZE_BANDS = ['NN', '00', '01', '02', '03', '11', '12'] as const
const FIRST_NAMES = ['MARIE', 'JEAN', 'PIERRE', 'SOPHIE', 'NICOLAS', 'JULIE', 'THOMAS', 'CAMILLE', 'LUC', 'EMMA']
const SURNAMES = ['MARTIN', 'BERNARD', 'DUBOIS', 'THOMAS', 'ROBERT', 'RICHARD', 'PETIT', 'DURAND', 'LEROY', 'MOREAU']

function normalize(text: string): string {
  return foldToAscii(text)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
}

interface Company {
  [key: string]: unknown
}

function makeCompany(options: { name: string; postalCode: string | null; naf: string | null; seed: number; siret?: string }): Company {
  const rng = new Rng(options.seed)
  const siren = options.siret?.slice(0, 9) ?? completeLuhn(`${rng.int(3, 9)}${String(rng.int(0, 9_999_999)).padStart(7, '0')}`)
  const siret = options.siret && options.siret.length === 14 ? options.siret : completeLuhn(`${siren}000${rng.int(1, 9)}`)
  const [code, label, short] = rng.pick(LEGAL_FORMS)
  const founded = `${rng.int(1965, 2022)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`
  const postalCode = options.postalCode ?? '75001'
  const naf = options.naf ?? rng.pick(['47.24Z', '56.10A', '96.02A', '43.21A', '47.11B', '86.23Z'])
  const name = normalize(options.name) || `ENTREPRISE ${siren}`
  const year = rng.int(2021, 2023)
  const street = `${rng.int(1, 80)} RUE ${rng.pick(['DE LA REPUBLIQUE', 'VICTOR HUGO', 'JEAN JAURES', 'DU COMMERCE', 'PASTEUR'])}`
  return {
    demo: true,
    siren,
    nom_complet: short === 'EI' ? name : `${name} (${short})`,
    nom_raison_sociale: short === 'EI' ? null : name,
    sigle: null,
    nombre_etablissements: 1,
    nombre_etablissements_ouverts: 1,
    activite_principale: naf,
    categorie_entreprise: 'PME',
    date_creation: founded,
    etat_administratif: 'A',
    nature_juridique: code,
    libelle_nature_juridique: label,
    tranche_effectif_salarie: rng.pick(SIZE_BANDS),
    siege: {
      siret,
      est_siege: true,
      activite_principale: naf,
      adresse: `${street} ${postalCode}`,
      code_postal: postalCode,
      commune: null,
      date_creation: founded,
      etat_administratif: 'A',
      liste_enseignes: [name],
      nom_commercial: name,
    },
    dirigeants: [{ nom: rng.pick(SURNAMES), prenoms: rng.pick(FIRST_NAMES), qualite: short === 'SAS' ? 'Président' : 'Gérant', type_dirigeant: 'personne physique' }],
    finances: { [String(year)]: { ca: rng.int(80, 4_000) * 1000, resultat_net: rng.int(-50, 400) * 1000 } },
    matching_etablissements: [{ siret, code_postal: postalCode, est_siege: true, etat_administratif: 'A' }],
  }
}

interface Reply {
  status: number
  body: unknown
}

export function routeRegistryRequest(method: string, rawUrl: string): Reply {
  if (method !== 'GET') return { status: 405, body: { erreur: 'Method not allowed' } }
  const url = new URL(rawUrl, 'http://registry.local')
  if (url.pathname !== '/search') return { status: 404, body: { erreur: 'Not found' } }
  const q = (url.searchParams.get('q') ?? '').trim()
  if (q.length < 3) return { status: 400, body: { erreur: 'Veuillez indiquer au moins 3 caractères dans le paramètre q' } }
  const perPage = Math.min(25, Math.max(1, Number(url.searchParams.get('per_page') ?? 10) || 10))
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1)
  const digits = q.replace(/\s+/g, '')
  let results: Company[] = []
  if (/^\d{9}$|^\d{14}$/.test(digits)) {
    if (luhnValid(digits.slice(0, 9))) {
      results = [makeCompany({ name: '', postalCode: null, naf: null, seed: hashString(`siren|${digits.slice(0, 9)}`), siret: digits })]
    }
  } else {
    const postalCode = url.searchParams.get('code_postal')?.split(',')[0]?.trim() || null
    const naf = url.searchParams.get('activite_principale')?.split(',')[0]?.trim() || null
    const seed = hashString(`name|${normalize(q)}|${postalCode ?? ''}`)
    if (seed % 10 !== 0) results = [makeCompany({ name: q, postalCode, naf, seed })]
  }
  const paged = page === 1 ? results.slice(0, perPage) : []
  return {
    status: 200,
    body: { demo: true, results: paged, total_results: results.length, page, per_page: perPage, total_pages: results.length ? 1 : 0 },
  }
}

export async function startDemoRegistry(options: DemoRegistryOptions = {}): Promise<DemoRegistry> {
  const { port = 0, host = '127.0.0.1', latencyMs = 0, onRequest, dataDir } = options
  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET'
    const path = req.url ?? '/'
    onRequest?.({ method, path })
    const reply = routeRegistryRequest(method, path)
    const send = () => {
      if (res.destroyed) return
      const body = JSON.stringify(reply.body)
      res.writeHead(reply.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' })
      res.end(body)
    }
    if (latencyMs > 0) setTimeout(send, latencyMs)
    else send()
  })
  await listenOnRememberedPort(server, { port, host, dataDir, name: 'demo-registry' })
  const address = server.address() as AddressInfo
  const loopback = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address
  const urlHost = loopback.includes(':') ? `[${loopback}]` : loopback
  return {
    url: `http://${urlHost}:${address.port}`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const registry = await startDemoRegistry({ port: env.PORT ?? 0, host: env.HOST })
  console.log(`Demo registry at ${registry.url} (set REGISTRY_URL=${registry.url})`)
  process.once('SIGINT', () => void registry.stop().then(() => process.exit(0)))
  process.once('SIGTERM', () => void registry.stop().then(() => process.exit(0)))
}
