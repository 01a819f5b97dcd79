/**
 * One row of INSEE's monthly StockEtablissement CSV → the registry store's record. Pure: the loader
 * (app/.server/registry-events/stock-load.ts) reads the file, this says what a row means.
 *
 * Columns are read by header name (INSEE adds columns between editions: dernierNumeroVoie…, identifiantAdresse…,
 * coordonneeLambert…). The stock carries no unité légale fields: the name is the establishment's own (enseigne,
 * dénomination usuelle), the legal form stays null. "[ND]" is how the open files mask what is not public (statut de
 * diffusion "P", partial diffusion): it is read as absent.
 */
import type { RegistryEstablishmentRecord } from './registry-establishment.ts'
import { sireneProcessedAt } from './sirene-record.ts'

/** Without these a row means nothing to the store: the file is refused when one is missing. */
export const STOCK_REQUIRED_COLUMNS = ['siret', 'dateCreationEtablissement', 'etatAdministratifEtablissement'] as const

const STOCK_COLUMNS = [
  ...STOCK_REQUIRED_COLUMNS,
  'siren',
  'statutDiffusionEtablissement',
  'trancheEffectifsEtablissement',
  'dateDernierTraitementEtablissement',
  'etablissementSiege',
  'numeroVoieEtablissement',
  'indiceRepetitionEtablissement',
  'typeVoieEtablissement',
  'libelleVoieEtablissement',
  'codePostalEtablissement',
  'libelleCommuneEtablissement',
  'libelleCommuneEtrangerEtablissement',
  'codeCommuneEtablissement',
  'enseigne1Etablissement',
  'enseigne2Etablissement',
  'enseigne3Etablissement',
  'denominationUsuelleEtablissement',
  'activitePrincipaleEtablissement',
  'nomenclatureActivitePrincipaleEtablissement',
] as const
type StockColumn = (typeof STOCK_COLUMNS)[number]

/** Where each column the store reads sits in the file's rows (-1: not in this file). */
export type StockColumnIndex = Record<StockColumn, number>

/** The index of the header's columns, or the required ones it lacks. */
export function stockColumnIndex(header: readonly string[]): { ok: true; index: StockColumnIndex } | { ok: false; missing: string[] } {
  const position = new Map(header.map((name, at) => [name.trim(), at]))
  const missing = STOCK_REQUIRED_COLUMNS.filter((name) => !position.has(name))
  if (missing.length) return { ok: false, missing }
  return { ok: true, index: Object.fromEntries(STOCK_COLUMNS.map((name) => [name, position.get(name) ?? -1])) as StockColumnIndex }
}

/** A processing time older than any flux: a row without one never overwrites what the flux stored. */
const NO_PROCESSING = '1970-01-01T00:00:00Z'
const NAF_REV2 = /^\d{2}\.\d{2}[A-Z]$/

/**
 * The record of one row, or null when the row cannot be stored (no valid SIRET, an unknown state). Read as the flux
 * reads the same fields (app/domain/sirene-record.ts): processing times as UTC, so the two compare; postcodes of five
 * digits; communes of the geographic code, 99xxx being countries.
 */
export function stockRecord(row: readonly string[], index: StockColumnIndex): RegistryEstablishmentRecord | null {
  const value = (column: StockColumn): string | null => {
    const at = index[column]
    const text = at < 0 ? '' : (row[at] ?? '').trim()
    return text === '' || text === '[ND]' ? null : text
  }
  const siret = value('siret')
  const state = value('etatAdministratifEtablissement')
  if (!siret || !/^\d{14}$/.test(siret) || (state !== 'A' && state !== 'F')) return null
  // Partial diffusion: the person asked that their establishment's street address not be spread; the commune stays.
  const partial = value('statutDiffusionEtablissement') === 'P'
  return {
    siret,
    siren: value('siren') ?? siret.slice(0, 9),
    name: value('enseigne1Etablissement') ?? value('denominationUsuelleEtablissement') ?? value('enseigne2Etablissement') ?? value('enseigne3Etablissement') ?? '',
    naf: nafOf(value('activitePrincipaleEtablissement'), value('nomenclatureActivitePrincipaleEtablissement')),
    legalForm: null,
    headcount: headcountOf(value('trancheEffectifsEtablissement')),
    postcode: postcodeOf(value('codePostalEtablissement')),
    commune: communeOf(value('codeCommuneEtablissement')),
    city: value('libelleCommuneEtablissement') ?? value('libelleCommuneEtrangerEtablissement'),
    address: partial ? null : streetOf(value),
    state,
    createdOn: dateOf(value('dateCreationEtablissement')),
    headOffice: value('etablissementSiege') === 'true',
    processedAt: sireneProcessedAt(value('dateDernierTraitementEtablissement')) ?? NO_PROCESSING,
    ...(partial && { partialDiffusion: true }),
  }
}

/** NAF rév. 2 only: closed establishments keep codes of older nomenclatures (NAFRev1, NAF1993, NAP) that would match wrongly. */
function nafOf(code: string | null, nomenclature: string | null): string | null {
  if (!code || !NAF_REV2.test(code)) return null
  return nomenclature === null || nomenclature === 'NAFRev2' ? code : null
}

/** "NN" (no employee figure) and anything not a band code is no band. */
function headcountOf(band: string | null): string | null {
  return band && /^\d{2}$/.test(band) ? band : null
}

function streetOf(value: (column: StockColumn) => string | null): string | null {
  const parts = [value('numeroVoieEtablissement'), value('indiceRepetitionEtablissement'), value('typeVoieEtablissement'), value('libelleVoieEtablissement')].filter(Boolean)
  return parts.length ? parts.join(' ') : null
}

function dateOf(text: string | null): string | null {
  return text && /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : null
}

function postcodeOf(text: string | null): string | null {
  return text && /^\d{5}$/.test(text) ? text : null
}

function communeOf(text: string | null): string | null {
  return text && /^(\d{5}|2[AB]\d{3})$/.test(text) && !text.startsWith('99') ? text : null
}

// StockUniteLegale (the companies' file, `--legal-units`): what the establishments' file lacks.

const LEGAL_UNIT_REQUIRED_COLUMNS = ['siren', 'categorieJuridiqueUniteLegale'] as const
const LEGAL_UNIT_COLUMNS = [
  ...LEGAL_UNIT_REQUIRED_COLUMNS,
  'denominationUniteLegale',
  'denominationUsuelle1UniteLegale',
  'nomUniteLegale',
  'nomUsageUniteLegale',
  'prenom1UniteLegale',
  'prenomUsuelUniteLegale',
] as const
type LegalUnitColumn = (typeof LEGAL_UNIT_COLUMNS)[number]
export type LegalUnitColumnIndex = Record<LegalUnitColumn, number>

export interface LegalUnitFacts {
  siren: string
  /** Catégorie juridique ("5710"; "1000" = sole trader), null when not given. */
  legalForm: string | null
  /** The company's name, else the sole trader's "first last"; '' when not public. */
  name: string
}

/** The index of a StockUniteLegale header, or the required columns it lacks. */
export function legalUnitColumnIndex(header: readonly string[]): { ok: true; index: LegalUnitColumnIndex } | { ok: false; missing: string[] } {
  const position = new Map(header.map((name, at) => [name.trim(), at]))
  const missing = LEGAL_UNIT_REQUIRED_COLUMNS.filter((name) => !position.has(name))
  if (missing.length) return { ok: false, missing }
  return { ok: true, index: Object.fromEntries(LEGAL_UNIT_COLUMNS.map((name) => [name, position.get(name) ?? -1])) as LegalUnitColumnIndex }
}

/** One StockUniteLegale row: named as the flux names a company (app/domain/sirene-record.ts); null without a SIREN. */
export function legalUnitFacts(row: readonly string[], index: LegalUnitColumnIndex): LegalUnitFacts | null {
  const value = (column: LegalUnitColumn): string | null => {
    const at = index[column]
    const text = at < 0 ? '' : (row[at] ?? '').trim()
    return text === '' || text === '[ND]' ? null : text
  }
  const siren = value('siren')
  if (!siren || !/^\d{9}$/.test(siren)) return null
  const legalForm = value('categorieJuridiqueUniteLegale')
  const person = [value('prenomUsuelUniteLegale') ?? value('prenom1UniteLegale'), value('nomUsageUniteLegale') ?? value('nomUniteLegale')].filter(Boolean).join(' ')
  return {
    siren,
    legalForm: legalForm && /^\d{4}$/.test(legalForm) ? legalForm : null,
    name: value('denominationUniteLegale') ?? value('denominationUsuelle1UniteLegale') ?? person,
  }
}
