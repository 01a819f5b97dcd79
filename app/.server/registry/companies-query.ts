/**
 * The `/companies` form's values (app/domain/companies-form.ts) as registry filters: the category's NAF codes (as the
 * enrichment's registry match uses them), an activity picked by label, and the place's names as INSEE codes, with
 * the search page's matching rules (app/.server/geo/france.ts: names or codes, each level inside the one above).
 */
import codesNaf from '@socialgouv/codes-naf'
import type { Language } from '#app/i18n.ts'
import { findCommune, findDepartment, findRegion, normalizeName } from '#app/.server/geo/france.ts'
import { findCategory, getCategory, labelOf } from '#app/.server/taxonomy/categories.ts'
import { nafCodeIn, nafOptionText, type CompaniesQuery } from '#app/domain/companies-form.ts'
import type { RegistryFiltersInput, RegistryPlace } from '#app/domain/registry-search.ts'

/** Subclasses only (10.71C): the registry filters on them, not on headings. */
const NAF_SUBCLASSES = codesNaf.filter((entry) => /^\d{2}\.\d{2}[A-Z]$/.test(entry.id))
const NAF_BY_CODE = new Map(NAF_SUBCLASSES.map((entry) => [entry.id, entry.label]))

/** The picker's options: every subclass as "code — label". */
export function nafOptions(): string[] {
  return NAF_SUBCLASSES.map((entry) => nafOptionText(entry.id, entry.label))
}

/** Every subclass with its official (French) label, in code order: the API's NAF lookup. */
export function nafCodeList(): { code: string; label: string }[] {
  return NAF_SUBCLASSES.map((entry) => ({ code: entry.id, label: entry.label }))
}

export function nafLabelOf(code: string): string | null {
  return NAF_BY_CODE.get(code) ?? null
}

/** A code ("10.71C", "1071C", the picker's "10.71C — …"), a label, or words found in one label only; else null. */
function nafCodeOf(value: string): string | null {
  const code = nafCodeIn(value)
  if (code) return NAF_BY_CODE.has(code) ? code : null
  const wanted = normalizeName(value)
  if (!wanted) return null
  const exact = NAF_SUBCLASSES.find((entry) => normalizeName(entry.label) === wanted)
  if (exact) return exact.id
  // Words of one label only ("boulangerie-pâtisserie"); words several labels share are refused, not guessed.
  const partial = NAF_SUBCLASSES.filter((entry) => normalizeName(entry.label).includes(wanted))
  return partial.length === 1 ? (partial[0]?.id ?? null) : null
}

export type CompaniesField = 'sector' | 'nafAdd' | 'region' | 'department' | 'city' | 'createdAfter'

export type CompaniesFilters =
  | { ok: true; filters: RegistryFiltersInput; nafCodes: string[]; categoryLabel: string | null }
  | { ok: false; field: CompaniesField; messageKey: string; nafCodes: string[] }

function placeOf(query: CompaniesQuery): { ok: true; place: RegistryPlace } | { ok: false; field: CompaniesField; messageKey: string } {
  const region = query.region ? findRegion(query.region) : undefined
  if (query.region && !region) return { ok: false, field: 'region', messageKey: 'search.errors.location.unknownRegion' }
  const department = query.department ? findDepartment(query.department) : undefined
  if (query.department && (!department || (region && department.region !== region.code))) return { ok: false, field: 'department', messageKey: 'search.errors.location.unknownDepartment' }
  if (query.city) {
    const scope = { ...(region && { regionCode: region.code }), ...(department && { departmentCode: department.code }) }
    // Five digits are read as a postcode first (what people type), then as a commune's INSEE code.
    const postcode = /^\d{5}$/.test(query.city) ? findCommune(query.city, scope, (c) => c.codesPostaux.includes(query.city)) : undefined
    if (postcode) return { ok: true, place: { kind: 'postcode', code: query.city } }
    const commune = findCommune(query.city, scope)
    if (!commune) return { ok: false, field: 'city', messageKey: 'search.errors.location.unknownCity' }
    return { ok: true, place: { kind: 'commune', code: commune.code } }
  }
  if (department) return { ok: true, place: { kind: 'department', code: department.code } }
  if (region) return { ok: true, place: { kind: 'region', code: region.code } }
  return { ok: true, place: { kind: 'france' } }
}

/** The filters the form's values stand for, or the field that is wrong (a localized 400). */
export function companiesFilters(query: CompaniesQuery, lang: Language): CompaniesFilters {
  const codes = new Set(query.naf)
  let categoryLabel: string | null = null
  if (query.sector) {
    const category = getCategory(query.sector) ?? findCategory(query.sector, lang)
    if (!category || category.naf.length === 0) return { ok: false, field: 'sector', messageKey: 'companies.errors.unknownCategory', nafCodes: [...codes] }
    categoryLabel = labelOf(category, lang)
    for (const code of category.naf) codes.add(code)
  }
  if (query.nafAdd) {
    const code = nafCodeOf(query.nafAdd)
    if (!code) return { ok: false, field: 'nafAdd', messageKey: 'companies.errors.unknownActivity', nafCodes: [...codes] }
    codes.add(code)
  }
  const nafCodes = [...codes]
  const place = placeOf(query)
  if (!place.ok) return { ...place, nafCodes }
  // The local store, which alone knows creation dates, keeps no labels: refused together, named at the date.
  if (query.createdAfter && query.label.length) return { ok: false, field: 'createdAfter', messageKey: 'companies.errors.labelsWithCreatedAfter', nafCodes }
  return {
    ok: true,
    nafCodes,
    categoryLabel,
    filters: {
      nafCodes,
      place: place.place,
      headcountBands: query.headcount as RegistryFiltersInput['headcountBands'],
      legalForms: query.legalForm,
      labels: query.label,
      activeOnly: query.activeOnly,
      ...(query.createdAfter && { createdAfter: query.createdAfter }),
    },
  }
}
