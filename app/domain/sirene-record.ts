/**
 * One establishment of the INSEE Sirene API 3.11 (`GET /siret`, an item of `etablissements[]`) as the registry store
 * keeps it (RegistryEstablishmentRecord). Pure: the daily flux import maps each record of a page with it, the demo
 * server serves the same shape. Field names are INSEE's (docs/registry-events-sources.md §5).
 */
import type { RegistryEstablishmentRecord } from './registry-establishment.ts'

/** The fields of `uniteLegale` we read (the API sends more). */
interface SireneUniteLegale {
  etatAdministratifUniteLegale?: string | null
  categorieJuridiqueUniteLegale?: string | null
  denominationUniteLegale?: string | null
  denominationUsuelle1UniteLegale?: string | null
  nomUniteLegale?: string | null
  nomUsageUniteLegale?: string | null
  prenom1UniteLegale?: string | null
  prenomUsuelUniteLegale?: string | null
  [field: string]: unknown
}

interface SireneAdresse {
  numeroVoieEtablissement?: string | null
  indiceRepetitionEtablissement?: string | null
  typeVoieEtablissement?: string | null
  libelleVoieEtablissement?: string | null
  codePostalEtablissement?: string | null
  libelleCommuneEtablissement?: string | null
  codeCommuneEtablissement?: string | null
  [field: string]: unknown
}

/** One period of the establishment's history; the API lists the current one (dateFin null) first. */
interface SirenePeriode {
  dateFin?: string | null
  dateDebut?: string | null
  etatAdministratifEtablissement?: string | null
  activitePrincipaleEtablissement?: string | null
  nomenclatureActivitePrincipaleEtablissement?: string | null
  enseigne1Etablissement?: string | null
  denominationUsuelleEtablissement?: string | null
  [field: string]: unknown
}

/** An item of the API's `etablissements[]`. */
export interface SireneEtablissement {
  siren: string
  siret: string
  dateCreationEtablissement?: string | null
  trancheEffectifsEtablissement?: string | null
  etablissementSiege?: boolean | null
  dateDernierTraitementEtablissement?: string | null
  uniteLegale?: SireneUniteLegale | null
  adresseEtablissement?: SireneAdresse | null
  periodesEtablissement?: SirenePeriode[] | null
  [field: string]: unknown
}

/** Sirene masks what a person asked not to publish (statut de diffusion "P") as "[ND]": that is no value. */
function value(raw: unknown): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null
  const text = String(raw).trim()
  return text && text !== '[ND]' ? text : null
}

function isObject(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw)
}

function realDay(raw: unknown): string | null {
  const day = value(raw)
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return null
  const date = new Date(`${day}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day ? day : null
}

/**
 * `dateDernierTraitementEtablissement` ("2024-09-05T09:31:12.000", no zone) as an ISO instant. Read as UTC: the
 * store only compares two processings of the same establishment, so every feed (flux, stock file) must read it the
 * same way, and this is that way.
 */
export function sireneProcessedAt(raw: unknown): string | null {
  const text = value(raw)
  const match = text && /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2})(\.\d{1,3})?)?$/.exec(text)
  if (!match || !realDay(match[1])) return null
  const instant = new Date(`${match[1]}T${match[2] ?? '00:00:00'}${match[3] ?? '.000'}Z`)
  return Number.isNaN(instant.getTime()) ? null : instant.toISOString()
}

/** The current period: the one still open (dateFin null), else the first, as the API orders them. */
function currentPeriod(periods: unknown): SirenePeriode | null {
  if (!Array.isArray(periods)) return null
  const objects = periods.filter(isObject) as SirenePeriode[]
  return objects.find((period) => period.dateFin == null) ?? objects[0] ?? null
}

/** The sign, else the establishment's usual name, else the company's name, else the sole trader's "first last". */
function nameOf(period: SirenePeriode | null, unit: SireneUniteLegale | null): string {
  const person = [value(unit?.prenomUsuelUniteLegale) ?? value(unit?.prenom1UniteLegale), value(unit?.nomUsageUniteLegale) ?? value(unit?.nomUniteLegale)]
  return (
    value(period?.enseigne1Etablissement) ??
    value(period?.denominationUsuelleEtablissement) ??
    value(unit?.denominationUniteLegale) ??
    value(unit?.denominationUsuelle1UniteLegale) ??
    person.filter(Boolean).join(' ')
  )
}

/** NAF rév. 2 only ("10.71C"): older nomenclatures (NAFRev1, NAF1993, NAP) are other codes under the same field. */
function nafOf(period: SirenePeriode | null): string | null {
  const code = value(period?.activitePrincipaleEtablissement)
  const nomenclature = value(period?.nomenclatureActivitePrincipaleEtablissement)
  if (!code || !/^\d{2}\.\d{2}[A-Z]$/.test(code)) return null
  return nomenclature === null || nomenclature === 'NAFRev2' ? code : null
}

function addressOf(address: SireneAdresse | null): string | null {
  if (!address) return null
  const parts = [address.numeroVoieEtablissement, address.indiceRepetitionEtablissement, address.typeVoieEtablissement, address.libelleVoieEtablissement]
  return parts.map(value).filter(Boolean).join(' ') || null
}

/**
 * The record as the store keeps it; null when it cannot be stored: no valid SIRET, a SIREN that is not the SIRET's
 * first nine digits, no administrative state (A / F) or no processing date.
 */
export function readSireneEtablissement(raw: unknown): RegistryEstablishmentRecord | null {
  if (!isObject(raw)) return null
  const siret = value(raw.siret)
  if (!siret || !/^\d{14}$/.test(siret)) return null
  const siren = value(raw.siren) ?? siret.slice(0, 9)
  if (siren !== siret.slice(0, 9)) return null
  const period = currentPeriod(raw.periodesEtablissement)
  const state = value(period?.etatAdministratifEtablissement)
  const processedAt = sireneProcessedAt(raw.dateDernierTraitementEtablissement)
  if ((state !== 'A' && state !== 'F') || !processedAt) return null
  const unit = isObject(raw.uniteLegale) ? (raw.uniteLegale as SireneUniteLegale) : null
  const address = isObject(raw.adresseEtablissement) ? (raw.adresseEtablissement as SireneAdresse) : null
  const legalForm = value(unit?.categorieJuridiqueUniteLegale)
  const headcount = value(raw.trancheEffectifsEtablissement)
  const postcode = value(address?.codePostalEtablissement)
  const commune = value(address?.codeCommuneEtablissement)
  return {
    siret,
    siren,
    name: nameOf(period, unit),
    naf: nafOf(period),
    legalForm: legalForm && /^\d{4}$/.test(legalForm) ? legalForm : null,
    // "NN": not filled in (units with no employee in the reference year).
    headcount: headcount && /^\d{2}$/.test(headcount) ? headcount : null,
    postcode: postcode && /^\d{5}$/.test(postcode) ? postcode : null,
    // 99xxx are countries in the official geographic code, not communes.
    commune: commune && /^(\d{5}|2[AB]\d{3})$/.test(commune) && !commune.startsWith('99') ? commune : null,
    city: value(address?.libelleCommuneEtablissement),
    address: addressOf(address),
    state,
    createdOn: realDay(raw.dateCreationEtablissement),
    headOffice: raw.etablissementSiege === true,
    processedAt,
    ...((raw.statutDiffusionEtablissement === 'P' || unit?.statutDiffusionUniteLegale === 'P') && { partialDiffusion: true }),
  }
}
