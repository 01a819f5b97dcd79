/**
 * Readable labels for the registry's INSEE codes, in the language of the file that shows them. They are computed
 * when a match is read (readableRegistryInfo), never stored: a match stored before a label existed, or before its
 * table grew, reads like a new one, and the same match reads in English or in French.
 *
 *   NAF rév. 2 activity (activite_principale "47.24Z") → @socialgouv/codes-naf, the INSEE nomenclature
 *     (https://www.insee.fr/fr/information/2120875) as published on npm by the French social ministries' SocialGouv.
 *     French only: INSEE publishes no English NAF labels.
 *   Legal category (nature_juridique "5499")            → registry-legal-categories.ts, the INSEE nomenclature
 *     (https://www.insee.fr/fr/information/2028129), level III, then the level-II and level-I headings for an
 *     unknown code. French only, as INSEE publishes it.
 *   Headcount band (tranche_effectif_salarie "03")      → INSEE "tranches d'effectif salarié", in French or English.
 *   Administrative state (etat_administratif)           → INSEE's wording: establishment A "Actif" / F "Fermé",
 *     legal unit C "Cessée"; in English Active / Closed / Ceased.
 *   How the company was identified (matched_by)         → ours: SIRET/SIREN printed on the site, name and postcode,
 *     or printed on the site but not in the registry.
 */
import codesNaf from '@socialgouv/codes-naf'
import type { FileLang } from '#app/domain/file-language.ts'
import type { ADMINISTRATIVE_STATES, RegistryMatchMethod } from '#app/domain/lead-file-values.ts'
import { LEGAL_CATEGORIES, LEGAL_CATEGORY_HEADINGS_LEVEL_1, LEGAL_CATEGORY_HEADINGS_LEVEL_2 } from './registry-legal-categories.ts'

const NAF = new Map(codesNaf.map((entry) => [entry.id, entry.label]))

const HEADCOUNT_BAND: Record<string, Record<FileLang, string>> = {
  NN: { fr: 'Unité non employeuse', en: 'Non-employing unit' },
  '00': { fr: '0 salarié', en: '0 employees' },
  '01': { fr: '1 ou 2 salariés', en: '1 or 2 employees' },
  '02': { fr: '3 à 5 salariés', en: '3 to 5 employees' },
  '03': { fr: '6 à 9 salariés', en: '6 to 9 employees' },
  '11': { fr: '10 à 19 salariés', en: '10 to 19 employees' },
  '12': { fr: '20 à 49 salariés', en: '20 to 49 employees' },
  '21': { fr: '50 à 99 salariés', en: '50 to 99 employees' },
  '22': { fr: '100 à 199 salariés', en: '100 to 199 employees' },
  '31': { fr: '200 à 249 salariés', en: '200 to 249 employees' },
  '32': { fr: '250 à 499 salariés', en: '250 to 499 employees' },
  '41': { fr: '500 à 999 salariés', en: '500 to 999 employees' },
  '42': { fr: '1 000 à 1 999 salariés', en: '1,000 to 1,999 employees' },
  '51': { fr: '2 000 à 4 999 salariés', en: '2,000 to 4,999 employees' },
  '52': { fr: '5 000 à 9 999 salariés', en: '5,000 to 9,999 employees' },
  '53': { fr: '10 000 salariés et plus', en: '10,000 employees or more' },
}

// Typed by the codes the API answers (lead-file-values.ts), read by any stored string.
const ADMINISTRATIVE_STATE: Partial<Record<string, Record<FileLang, string>>> = {
  A: { fr: 'Actif', en: 'Active' },
  F: { fr: 'Fermé', en: 'Closed' },
  C: { fr: 'Cessée', en: 'Ceased' },
} satisfies Record<(typeof ADMINISTRATIVE_STATES)[number], Record<FileLang, string>>

/** How the company was identified (admin_fr_info.matched_by). */
const MATCHED_BY: Partial<Record<string, Record<FileLang, string>>> = {
  siret: { fr: 'SIRET affiché sur le site', en: 'SIRET printed on the site' },
  siren: { fr: 'SIREN affiché sur le site', en: 'SIREN printed on the site' },
  name_postcode: { fr: 'Nom et code postal', en: 'Name and postcode' },
  site: { fr: 'Affiché sur le site, absent du registre', en: 'Printed on the site, not in the registry' },
  // A registry-first export (app/.server/registry/map-match.ts): the registry listed it; the map found it, or not.
  registry_map: { fr: 'Registre, trouvé sur la carte', en: 'Registry, found on the map' },
  registry_not_online: { fr: 'Non trouvé en ligne', en: 'Not found online' },
} satisfies Record<RegistryMatchMethod, Record<FileLang, string>>

/** "site" → "Printed on the site, not in the registry" / "Affiché sur le site, absent du registre". */
function matchedByLabel(value: string | null, lang: FileLang): string | null {
  return value ? (MATCHED_BY[value]?.[lang] ?? null) : null
}

/** "47.24Z" (or "4724Z") → its NAF rév. 2 label, or null. */
export function nafLabel(code: string | null): string | null {
  if (!code) return null
  const normalized = code.trim().toUpperCase().replace(/^(\d{2})\.?(\d{2}[A-Z])$/, '$1.$2')
  return NAF.get(normalized) ?? null
}

/** "5499" → "Société à responsabilité limitée (sans autre indication)", falling back to the code's headings. */
export function legalCategoryLabel(code: string | null): string | null {
  if (!code || !/^\d{4}$/.test(code)) return null
  return LEGAL_CATEGORIES[code] ?? LEGAL_CATEGORY_HEADINGS_LEVEL_2[code.slice(0, 2)] ?? LEGAL_CATEGORY_HEADINGS_LEVEL_1[code.slice(0, 1)] ?? null
}

/** "03" → "6 à 9 salariés" / "6 to 9 employees". */
export function headcountBandLabel(code: string | null, lang: FileLang): string | null {
  return code ? (HEADCOUNT_BAND[code]?.[lang] ?? null) : null
}

/** "F" → "Fermé" / "Closed". */
export function administrativeStateLabel(code: string | null, lang: FileLang): string | null {
  return code ? (ADMINISTRATIVE_STATE[code]?.[lang] ?? null) : null
}

/** Whether a registry state says the business no longer trades (establishment closed, or legal unit ceased). */
function isClosedState(code: unknown): boolean {
  return code === 'F' || code === 'C'
}

/** Whether the best match of a stored leads.admin_fr_info (results[0], else the object itself) no longer trades. */
export function isClosedMatch(info: unknown): boolean {
  if (!isRecord(info)) return false
  const best = Array.isArray(info.results) && isRecord(info.results[0]) ? info.results[0] : info
  return isClosedState(best.etat_administratif)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function code(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null
}

/** One match with the labels of its codes in `lang`; a code without a label keeps whatever label was stored. */
function labelled(result: Record<string, unknown>, lang: FileLang): Record<string, unknown> {
  const labels = {
    activite_principale_libelle: nafLabel(code(result.activite_principale)),
    nature_juridique_libelle: legalCategoryLabel(code(result.nature_juridique)),
    tranche_effectif_salarie_libelle: headcountBandLabel(code(result.tranche_effectif_salarie), lang),
    etat_administratif_libelle: administrativeStateLabel(code(result.etat_administratif), lang),
    matched_by_libelle: matchedByLabel(code(result.matched_by), lang),
  }
  return { ...result, ...Object.fromEntries(Object.entries(labels).filter(([, label]) => label !== null)) }
}

/** The BODACC risk statuses (app/domain/risk-shield.ts), in the wording of the Annuaire des Entreprises. */
const RISK_STATUS: Record<string, Record<FileLang, string>> = {
  sauvegarde: { fr: 'Procédure de sauvegarde', en: 'Safeguard proceedings (sauvegarde)' },
  redressement: { fr: 'Redressement judiciaire', en: 'Receivership (redressement judiciaire)' },
  liquidation: { fr: 'Liquidation judiciaire', en: 'Judicial liquidation' },
  radiee: { fr: 'Radiée', en: 'Struck off' },
}

/** The attached risk (`risk`, see app/.server/registry-events/lead-risks.ts) with its status labelled. */
function labelledRisk(risk: unknown, lang: FileLang): unknown {
  if (!isRecord(risk)) return risk
  const label = RISK_STATUS[code(risk.status) ?? '']?.[lang]
  return label ? { ...risk, status_libelle: label } : risk
}

/** A stored leads.admin_fr_info (its best match first in `results`, SPEC §3) with every match labelled in `lang`. */
export function readableRegistryInfo(info: unknown, lang: FileLang): unknown {
  if (!isRecord(info)) return info
  const results = Array.isArray(info.results) ? info.results.map((result) => (isRecord(result) ? labelled(result, lang) : result)) : info.results
  return { ...labelled(info, lang), ...(results !== undefined && { results }), ...(info.risk !== undefined && { risk: labelledRisk(info.risk, lang) }) }
}

/** A sole trader (entreprise individuelle): its registry entry names a person. */
export function isSoleTrader(legalCategory: string | null): boolean {
  return legalCategory?.startsWith('1') ?? false
}
