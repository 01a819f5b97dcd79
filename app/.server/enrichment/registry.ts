/**
 * French registry lookups (admin_fr_info) against recherche-entreprises.api.gouv.fr (data-sources.md):
 *
 *   GET /search?q=<siret|siren>&per_page=5            when the lead's SIRET/SIREN is known (filters ignored by the API)
 *   GET /search?q=<name>&code_postal=<cp>&per_page=5  otherwise, or when the identifier finds nothing
 *
 * At most `requestsPerSecond` (7) requests in any one-second window across every lookup of one client (bursts of 7,
 * then one as each leaves the window: N calls take ≥ (N-7)/7 s).
 * 429 → wait Retry-After (seconds or HTTP date; every lookup of the client pauses) and retry; 5xx and network errors →
 * retry with exponential backoff; at most `maxRetries` retries. A match carries a confidence in 0..1 built from name
 * similarity (accents, punctuation and legal-form words removed, generic activity words weighing less) and postcode
 * equality: similarity × (0.75 + 0.25 × postcode match), +1 (capped) when the SIRET matches; below 0.5 the lookup
 * is not_found.
 */
import { RateLimiter, sleep } from './limits.ts'
import { cleanSiret, isValidSiren } from './siret.ts'
import { parseRetryAfter } from '#app/utils/headers.ts'
import { foldToAscii } from '#app/domain/text.ts'

interface RegistryLead {
  name: string
  postalCode: string | null
  city: string | null
  siret?: string | null
  /** When only the SIREN is known (e.g. an RCS mention on the website). */
  siren?: string | null
  nafCodes?: string[]
  latitude?: number | null
  longitude?: number | null
}

interface AdminFrDirigeant {
  nom?: string
  prenoms?: string
  qualite?: string
  denomination?: string
}

interface AdminFrResult {
  siren: string
  siret: string | null
  nom_complet: string | null
  nom_raison_sociale: string | null
  activite_principale: string | null
  nature_juridique: string | null
  categorie_entreprise: string | null
  tranche_effectif_salarie: string | null
  date_creation: string | null
  etat_administratif: string | null
  adresse: string | null
  code_postal: string | null
  /** Town name (libelle_commune), falling back to the INSEE code. */
  commune: string | null
  dirigeants: AdminFrDirigeant[]
  finances?: unknown
  /** Confidence of this result alone (0..1). */
  confidence: number
}

interface AdminFrInfo {
  /** Results at or above the threshold, best first. */
  results: AdminFrResult[]
  /** Confidence of the best result (0..1). */
  confidence: number
  matched_by: 'siret' | 'siren' | 'name_postcode'
}

type RegistryResult =
  | { status: 'success'; info: AdminFrInfo }
  | { status: 'not_found' }
  | { status: 'failed'; error: string; retryAfterSeconds?: number }

export interface RegistryClientOptions {
  /** Default https://recherche-entreprises.api.gouv.fr */
  baseUrl?: string
  /** Default 7 (the API's documented limit per IP). */
  requestsPerSecond?: number
  fetch?: typeof fetch
  /** Retries after the first attempt, default 3. */
  maxRetries?: number
  /** Per request, default 10 s. */
  timeoutMs?: number
  /** First backoff delay for 5xx/network errors, doubled each retry (default 500 ms). */
  retryBaseDelayMs?: number
  /** A Retry-After longer than this is not waited for: the lookup fails with retryAfterSeconds (default 60). */
  maxRetryAfterSeconds?: number
  /** Below this the lookup is not_found (default 0.5). */
  minConfidence?: number
  userAgent?: string
}

export interface RegistryClient {
  lookup(lead: RegistryLead, options?: { signal?: AbortSignal }): Promise<RegistryResult>
}

// ————— name matching —————

/** Words that say what kind of company it is, not which one. */
const LEGAL_FORMS = new Set([
  'sarl', 'sas', 'sasu', 'eurl', 'sa', 'sci', 'snc', 'scs', 'sca', 'scp', 'scm', 'sel', 'selarl', 'selas', 'selafa', 'selca', 'ei', 'eirl',
  'earl', 'gaec', 'gie', 'scea', 'scop', 'scic', 'sc', 'association', 'asso', 'ste', 'societe', 'cie', 'compagnie', 'ets', 'etablissements',
  'etablissement', 'entreprise', 'groupe', 'holding', 'france', 'ltd', 'limited', 'inc', 'gmbh', 'llc', 'sprl', 'srl', 'micro', 'auto-entrepreneur',
])
const STOP_WORDS = new Set(['le', 'la', 'les', 'l', 'de', 'du', 'des', 'd', 'et', 'au', 'aux', 'a', 'en', 'chez', 'the', 'and', 'of', 'un', 'une', 'sur', 'par'])
/** Activity words shared by many businesses: they count, but much less than the distinctive part of a name. */
const GENERIC_WORDS = new Set([
  'boulangerie', 'patisserie', 'boulanger', 'patissier', 'restaurant', 'resto', 'cafe', 'bar', 'brasserie', 'bistrot', 'pizzeria', 'creperie',
  'hotel', 'garage', 'auto', 'automobiles', 'pharmacie', 'coiffure', 'coiffeur', 'salon', 'institut', 'beaute', 'boucherie', 'charcuterie',
  'traiteur', 'fleuriste', 'fleurs', 'cabinet', 'agence', 'immobilier', 'immobiliere', 'boutique', 'atelier', 'librairie', 'epicerie',
  'tabac', 'presse', 'optique', 'opticien', 'plomberie', 'plombier', 'electricite', 'electricien', 'menuiserie', 'peinture', 'taxi',
  'ambulance', 'ambulances', 'camping', 'ecole', 'dentiste', 'dentaire', 'docteur', 'medecin', 'veterinaire', 'clinique', 'notaire',
  'avocat', 'avocats', 'architecte', 'architecture', 'studio', 'services', 'service', 'conseil', 'consulting', 'transports', 'transport',
  'batiment', 'construction', 'renovation', 'maconnerie', 'couverture', 'chauffage', 'jardin', 'paysage', 'nettoyage', 'informatique',
  'maison', 'bio', 'market', 'supermarche', 'magasin', 'shop', 'store', 'centre', 'club', 'fitness', 'sport', 'sports', 'pressing',
  'laverie', 'cave', 'vins', 'fromagerie', 'poissonnerie', 'primeur', 'kebab', 'sushi', 'burger', 'snack', 'pub', 'auberge', 'gite',
  'chambres', 'hotes', 'spa', 'esthetique', 'ongles', 'barbier', 'tatouage', 'photo', 'photographe', 'bijouterie', 'horlogerie', 'cordonnerie',
  'serrurerie', 'serrurier', 'vitrerie', 'carrosserie', 'moto', 'cycles', 'velo', 'location', 'assurance', 'assurances', 'banque',
  'comptable', 'expertise', 'formation', 'creche', 'pension', 'residence', 'le', 'petit', 'grand', 'vieux', 'nouveau', 'bon', 'bonne',
])

export function normalizeCompanyName(name: string): string {
  return foldToAscii(name)
    .replace(/&/g, ' et ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

function tokens(name: string): string[] {
  const out: string[] = []
  for (const token of normalizeCompanyName(name).split(' ')) {
    if (!token || STOP_WORDS.has(token) || LEGAL_FORMS.has(token)) continue
    const singular = token.length > 4 && token.endsWith('s') ? token.slice(0, -1) : token
    if (!out.includes(singular)) out.push(singular)
  }
  return out
}

/** The name without spaces and legal-form words, stop words kept. */
function compact(name: string): string {
  return normalizeCompanyName(name).split(' ').filter((t) => t && !LEGAL_FORMS.has(t)).join('')
}

function weight(token: string): number {
  return GENERIC_WORDS.has(token) || GENERIC_WORDS.has(`${token}s`) ? 0.35 : 1
}

function editDistanceAtMost1(a: string, b: string): boolean {
  if (a === b) return true
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  let j = 0
  let edits = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++
      j++
      continue
    }
    if (++edits > 1) return false
    if (a.length > b.length) i++
    else if (b.length > a.length) j++
    else {
      i++
      j++
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1
}

function tokensMatch(a: string, b: string): boolean {
  return a === b || (a.length >= 5 && b.length >= 5 && editDistanceAtMost1(a, b))
}

/** Weighted Dice over name tokens (generic activity words weigh less); 1 for the same name. */
export function nameSimilarity(a: string, b: string): number {
  const left = tokens(a)
  const right = tokens(b)
  if (left.length === 0 || right.length === 0) return 0
  const total = left.reduce((s, t) => s + weight(t), 0) + right.reduce((s, t) => s + weight(t), 0)
  let matched = 0
  const used = new Set<number>()
  for (const token of left) {
    const index = right.findIndex((other, i) => !used.has(i) && tokensMatch(token, other))
    if (index >= 0) {
      used.add(index)
      matched += weight(token) + weight(right[index] as string)
    }
  }
  let score = matched / total
  // Names written together or apart ("Le Fournil" / "LEFOURNIL").
  const compactA = compact(a)
  const compactB = compact(b)
  if (compactA.length >= 5 && compactA === compactB) score = 1
  return Math.min(1, score)
}

// ————— API shapes —————

interface ApiEtablissement {
  siret?: string
  adresse?: string
  code_postal?: string
  commune?: string
  libelle_commune?: string
  activite_principale?: string
  etat_administratif?: string
  date_creation?: string
  latitude?: string | number | null
  longitude?: string | number | null
  liste_enseignes?: string[] | null
  nom_commercial?: string | null
}

interface ApiResult {
  siren?: string
  nom_complet?: string
  nom_raison_sociale?: string
  sigle?: string | null
  activite_principale?: string
  nature_juridique?: string
  categorie_entreprise?: string | null
  tranche_effectif_salarie?: string | null
  date_creation?: string
  etat_administratif?: string
  siege?: ApiEtablissement
  matching_etablissements?: ApiEtablissement[]
  dirigeants?: Array<Record<string, unknown>>
  finances?: unknown
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : null
}

function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180
  const dLat = (lat2 - lat1) * rad
  const dLon = (lon2 - lon1) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2
  return 12_742 * Math.asin(Math.sqrt(h))
}

/** Names a result is known by: legal name, full name (with its bracketed trade name), sigle, signs, trade names. */
function candidateNames(result: ApiResult, etablissement: ApiEtablissement | undefined): string[] {
  const names = [result.nom_complet, result.nom_raison_sociale, result.sigle, etablissement?.nom_commercial, result.siege?.nom_commercial]
  for (const sign of [...(etablissement?.liste_enseignes ?? []), ...(result.siege?.liste_enseignes ?? [])]) names.push(sign)
  const bracketed = /\(([^)]+)\)/.exec(result.nom_complet ?? '')
  if (bracketed) names.push(bracketed[1])
  return names.filter((n): n is string => typeof n === 'string' && n.trim().length > 0)
}

function scoreResult(lead: RegistryLead, result: ApiResult, siret: string | null, siren: string | null): { confidence: number; etablissement: ApiEtablissement | undefined } {
  const etablissements = [...(result.matching_etablissements ?? []), ...(result.siege ? [result.siege] : [])]
  const bySiret = siret ? etablissements.find((e) => e.siret === siret) : undefined
  const postcode = lead.postalCode?.trim() || null
  const byPostcode = postcode ? etablissements.find((e) => e.code_postal === postcode) : undefined
  let near: ApiEtablissement | undefined
  if (!byPostcode && lead.latitude != null && lead.longitude != null) {
    near = etablissements.find((e) => {
      const lat = Number(e.latitude)
      const lon = Number(e.longitude)
      return Number.isFinite(lat) && Number.isFinite(lon) && e.latitude != null && distanceKm(lead.latitude as number, lead.longitude as number, lat, lon) <= 2
    })
  }
  const etablissement = bySiret ?? byPostcode ?? near ?? result.matching_etablissements?.[0] ?? result.siege
  const name = Math.max(0, ...candidateNames(result, etablissement).map((n) => nameSimilarity(lead.name, n)))
  const place = byPostcode || near || (bySiret && postcode && bySiret.code_postal === postcode) ? 1 : 0
  // The name carries the match; the postcode (or the coordinates) confirms it: without it a perfect name scores 0.75.
  // The API already filters on the postcode, so an additive postcode term would let weak names through.
  // A matching SIRET names the very establishment (+1); a matching SIREN only the company (+0.5).
  const idBonus = bySiret ? 1 : siren && result.siren === siren ? 0.5 : 0
  const confidence = Math.min(1, name * (0.75 + 0.25 * place) + idBonus)
  return { confidence: Math.round(confidence * 1000) / 1000, etablissement }
}

function toAdminResult(result: ApiResult, etablissement: ApiEtablissement | undefined, confidence: number): AdminFrResult {
  const place = etablissement ?? result.siege
  return {
    siren: str(result.siren) ?? '',
    siret: str(place?.siret),
    nom_complet: str(result.nom_complet),
    nom_raison_sociale: str(result.nom_raison_sociale),
    activite_principale: str(place?.activite_principale) ?? str(result.activite_principale),
    nature_juridique: str(result.nature_juridique),
    categorie_entreprise: str(result.categorie_entreprise),
    tranche_effectif_salarie: str(result.tranche_effectif_salarie),
    date_creation: str(result.date_creation),
    etat_administratif: str(place?.etat_administratif) ?? str(result.etat_administratif),
    adresse: str(place?.adresse),
    code_postal: str(place?.code_postal),
    commune: str(place?.libelle_commune) ?? str(place?.commune),
    dirigeants: (result.dirigeants ?? []).slice(0, 20).map((d) => {
      const out: AdminFrDirigeant = {}
      for (const key of ['nom', 'prenoms', 'qualite', 'denomination'] as const) {
        const value = str(d[key])
        if (value) out[key] = value
      }
      return out
    }),
    ...(result.finances !== undefined && result.finances !== null ? { finances: result.finances } : {}),
    confidence,
  }
}

// ————— HTTP —————

type Attempt =
  | { kind: 'ok'; results: ApiResult[] }
  | { kind: 'failed'; error: string; retryAfterSeconds?: number }

export function createRegistryClient(options: RegistryClientOptions = {}): RegistryClient {
  const baseUrl = (options.baseUrl ?? 'https://recherche-entreprises.api.gouv.fr').replace(/\/+$/, '')
  const rate = options.requestsPerSecond ?? 7
  const bucket = new RateLimiter(rate)
  const fetchImpl = options.fetch ?? globalThis.fetch
  const maxRetries = options.maxRetries ?? 3
  const timeoutMs = options.timeoutMs ?? 10_000
  const baseDelay = options.retryBaseDelayMs ?? 500
  const maxRetryAfter = options.maxRetryAfterSeconds ?? 60
  const minConfidence = options.minConfidence ?? 0.5
  const userAgent = options.userAgent ?? 'LeadAtlasBot/0.1 (+https://leadatlas.app/bot)'

  async function search(params: Record<string, string>, signal?: AbortSignal): Promise<Attempt> {
    const url = `${baseUrl}/search?${new URLSearchParams(params).toString()}`
    for (let attempt = 0; ; attempt++) {
      await bucket.take(signal)
      const backoff = baseDelay * 2 ** attempt * (0.8 + Math.random() * 0.4)
      const deadline = AbortSignal.timeout(timeoutMs)
      let response: Response
      let text: string
      try {
        response = await fetchImpl(url, { signal: signal ? AbortSignal.any([signal, deadline]) : deadline, headers: { accept: 'application/json', 'user-agent': userAgent } })
        text = await response.text()
      } catch (error) {
        if (signal?.aborted) throw signal.reason
        const code = deadline.aborted ? 'timeout' : 'network_error'
        if (attempt >= maxRetries) return { kind: 'failed', error: code }
        await sleep(backoff, signal)
        continue
      }
      if (response.status === 429) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'))
        if (retryAfter !== undefined && retryAfter > maxRetryAfter) return { kind: 'failed', error: 'rate_limited', retryAfterSeconds: retryAfter }
        if (attempt >= maxRetries) return { kind: 'failed', error: 'rate_limited', ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}) }
        // The limit is per IP: every lookup of this client waits, not only this one.
        bucket.pauseFor(retryAfter !== undefined ? retryAfter * 1000 : backoff)
        continue
      }
      if (response.status >= 500) {
        if (attempt >= maxRetries) return { kind: 'failed', error: `http_${response.status}` }
        await sleep(backoff, signal)
        continue
      }
      if (response.status === 404) return { kind: 'ok', results: [] }
      if (response.status !== 200) return { kind: 'failed', error: `http_${response.status}` }
      try {
        const body = JSON.parse(text) as { results?: unknown }
        if (!Array.isArray(body.results)) return { kind: 'failed', error: 'invalid_response' }
        return { kind: 'ok', results: body.results as ApiResult[] }
      } catch {
        return { kind: 'failed', error: 'invalid_response' }
      }
    }
  }

  function best(lead: RegistryLead, results: ApiResult[], ids: { siret: string | null; siren: string | null }, matchedBy: AdminFrInfo['matched_by']): RegistryResult {
    const scored = results
      .filter((r) => r && typeof r === 'object' && r.siren)
      .map((r) => {
        const { confidence, etablissement } = scoreResult(lead, r, ids.siret, ids.siren)
        return toAdminResult(r, etablissement, confidence)
      })
      .filter((r) => r.confidence >= minConfidence)
      // Best first; on a tie, active companies before closed ones.
      .sort((a, b) => b.confidence - a.confidence || Number(b.etat_administratif === 'A') - Number(a.etat_administratif === 'A'))
    const top = scored[0]
    if (!top) return { status: 'not_found' }
    return { status: 'success', info: { results: scored, confidence: top.confidence, matched_by: matchedBy } }
  }

  return {
    async lookup(lead, lookupOptions = {}) {
      const { signal } = lookupOptions
      signal?.throwIfAborted()
      const siret = cleanSiret(lead.siret)
      const siren = siret ? siret.slice(0, 9) : lead.siren && isValidSiren(lead.siren.replace(/\s/g, '')) ? lead.siren.replace(/\s/g, '') : null

      if (siret || siren) {
        const attempt = await search({ q: (siret ?? siren) as string, per_page: '5' }, signal)
        if (attempt.kind === 'failed') return { status: 'failed', error: attempt.error, ...(attempt.retryAfterSeconds !== undefined ? { retryAfterSeconds: attempt.retryAfterSeconds } : {}) }
        // An identifier is strong evidence: the trade name may differ completely from the registered one.
        const identified = attempt.results.filter((r) => r.siren === siren)
        if (identified.length > 0) {
          const result = best(lead, identified, { siret, siren }, siret ? 'siret' : 'siren')
          if (result.status === 'success') {
            if (siret && result.info.results[0]?.siret !== siret) result.info.matched_by = 'siren'
            return result
          }
        }
      }

      const query = lead.name.trim().replace(/\s+/g, ' ').slice(0, 200)
      if (normalizeCompanyName(query).replace(/\s/g, '').length < 3) return { status: 'not_found' }
      const params: Record<string, string> = { q: query, per_page: '5' }
      const postcode = lead.postalCode?.trim()
      if (postcode && /^\d{5}$/.test(postcode)) params.code_postal = postcode
      const attempt = await search(params, signal)
      if (attempt.kind === 'failed') return { status: 'failed', error: attempt.error, ...(attempt.retryAfterSeconds !== undefined ? { retryAfterSeconds: attempt.retryAfterSeconds } : {}) }
      return best(lead, attempt.results, { siret, siren }, 'name_postcode')
    },
  }
}
