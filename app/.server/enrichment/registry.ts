/**
 * French registry lookups (admin_fr_info) against recherche-entreprises.api.gouv.fr (data-sources.md):
 *
 *   GET /search?q=<siret|siren>&per_page=5            when the lead's SIRET/SIREN is known (filters ignored by the API)
 *   GET /search?q=<name>&code_postal=<cp>&per_page=5  otherwise, or when the identifier finds nothing; with
 *       &activite_principale=<the category's NAF codes> first when known, then without it if that finds no match
 *
 * At most `requestsPerSecond` (7) requests in any one-second window across every lookup of every process of the
 * deployment, the registry-first search included (app/.server/registry/limiter.ts: N calls take ≥ (N-7)/7 s).
 * 429 → wait Retry-After (seconds or HTTP date; every process pauses) and retry; 5xx and network errors →
 * retry with exponential backoff; at most `maxRetries` retries. A match carries a confidence in 0..1 built from name
 * similarity (accents, punctuation and legal-form words removed, generic activity words weighing less) and postcode
 * equality: similarity × (0.75 + 0.25 × postcode match), +1 (capped) when the SIRET matches; below 0.5 the lookup
 * is not_found.
 */
import { createRegistrySearch, type RegistryHttpOptions } from './registry-http.ts'
import { isValidSiren } from '#app/domain/company-ids.ts'
import { cleanSiret } from './siret.ts'
import { nameSimilarity, normalizeCompanyName } from './registry-names.ts'
import { isSoleTrader } from './registry-labels.ts'

export interface RegistryLead {
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
  /** INSEE codes: their labels are read from them in the file's language (registry-labels.ts), not stored. */
  activite_principale: string | null
  nature_juridique: string | null
  categorie_entreprise: string | null
  tranche_effectif_salarie: string | null
  date_creation: string | null
  /** The establishment's A (active) / F (closed), else the legal unit's A / C (ceased). */
  etat_administratif: string | null
  /** O = public, P = "diffusion partielle": a sole trader's name, address and directors are neither stored nor exported. */
  statut_diffusion: string | null
  adresse: string | null
  /** The head office's address (siege), null for a sole trader under partial diffusion. */
  siege_adresse: string | null
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

export interface RegistryClientOptions extends RegistryHttpOptions {
  /** Below this the lookup is not_found (default 0.5). */
  minConfidence?: number
}

export interface RegistryClient {
  lookup(lead: RegistryLead, options?: { signal?: AbortSignal }): Promise<RegistryResult>
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
  /** "O" (diffusible) or "P" (diffusion partielle); older answers may say "N". */
  statut_diffusion?: string
  complements?: { est_entrepreneur_individuel?: boolean } | null
  siege?: ApiEtablissement
  matching_etablissements?: ApiEtablissement[]
  dirigeants?: Array<Record<string, unknown>>
  finances?: unknown
}

/** The API's placeholder for withheld data ("[NON-DIFFUSIBLE]"). */
const WITHHELD = /NON[- ]DIFFUSIBLE|^\[ND\]$/i

function str(value: unknown): string | null {
  const out = typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : null
  return out && WITHHELD.test(out) ? null : out
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

/** Directors of a legal entity (a sole trader has none: the entry is the person), person or company. */
function directors(result: ApiResult, withheld: boolean): AdminFrDirigeant[] {
  if (withheld) return []
  return (result.dirigeants ?? []).slice(0, 20).flatMap((d) => {
    const out: AdminFrDirigeant = {}
    for (const key of ['nom', 'prenoms', 'qualite', 'denomination'] as const) {
      const value = str(d[key])
      if (value) out[key] = value
    }
    return out.nom || out.denomination ? [out] : []
  })
}

function toAdminResult(result: ApiResult, etablissement: ApiEtablissement | undefined, confidence: number): AdminFrResult {
  const place = etablissement ?? result.siege
  const nature = str(result.nature_juridique)
  const naf = str(place?.activite_principale) ?? str(result.activite_principale)
  const diffusion = str(result.statut_diffusion)
  const soleTrader = isSoleTrader(nature) || result.complements?.est_entrepreneur_individuel === true
  // Partial diffusion: the person behind a sole trader asked not to be listed. Their name, address and any director
  // entry are personal data: none of it is kept. A company under partial diffusion keeps its legal name.
  const personal = diffusion !== null && diffusion !== 'O' && soleTrader
  return {
    siren: str(result.siren) ?? '',
    siret: str(place?.siret),
    nom_complet: personal ? null : str(result.nom_complet),
    nom_raison_sociale: personal ? null : str(result.nom_raison_sociale),
    activite_principale: naf,
    nature_juridique: nature,
    categorie_entreprise: str(result.categorie_entreprise),
    tranche_effectif_salarie: str(result.tranche_effectif_salarie),
    date_creation: str(result.date_creation),
    etat_administratif: str(place?.etat_administratif) ?? str(result.etat_administratif),
    statut_diffusion: diffusion,
    adresse: personal ? null : str(place?.adresse),
    siege_adresse: personal ? null : str(result.siege?.adresse),
    code_postal: str(place?.code_postal),
    commune: str(place?.libelle_commune) ?? str(place?.commune),
    dirigeants: directors(result, personal || soleTrader),
    ...(result.finances !== undefined && result.finances !== null ? { finances: result.finances } : {}),
    confidence,
  }
}

export function createRegistryClient(options: RegistryClientOptions = {}): RegistryClient {
  const search = createRegistrySearch(options)
  const minConfidence = options.minConfidence ?? 0.5

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
        const identified = (attempt.results as ApiResult[]).filter((r) => r.siren === siren)
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
      // The searched category's NAF codes narrow the search first; a business registered under another activity is
      // still found by the unfiltered search that follows a miss.
      const naf = (lead.nafCodes ?? []).filter((code) => /^\d{2}\.\d{2}[A-Z]$/.test(code))
      for (const filter of naf.length ? [naf.join(','), null] : [null]) {
        const attempt = await search(filter ? { ...params, activite_principale: filter } : params, signal)
        if (attempt.kind === 'failed') return { status: 'failed', error: attempt.error, ...(attempt.retryAfterSeconds !== undefined ? { retryAfterSeconds: attempt.retryAfterSeconds } : {}) }
        const result = best(lead, attempt.results as ApiResult[], { siret, siren }, 'name_postcode')
        if (result.status === 'success' || !filter) return result
      }
      return { status: 'not_found' }
    },
  }
}
