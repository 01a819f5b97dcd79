/**
 * The `/companies` form (issue 22 item 1) as its URL says it: a GET form, so a search is a link and works without
 * JavaScript. Declared once here, read by the route's loader and named by the form's fields. The values stay as
 * typed (names, labels), the server turns them into registry filters (app/.server/registry/companies-query.ts).
 */
import { z } from 'zod'
import { withLevel, type SearchCriteria } from './search.ts'
import { HEADCOUNT_BANDS, type HeadcountBand, type LegalFormFamily, type RegistryLabel } from './registry-search.ts'

export const LEGAL_FORM_FAMILY_IDS = ['soleTrader', 'sarl', 'sas', 'sa', 'association'] as const satisfies readonly LegalFormFamily[]
export const REGISTRY_LABEL_IDS = ['rge', 'qualiopi', 'ess', 'bio', 'trainingOrganisation', 'inclusion', 'missionCompany', 'livingHeritage'] as const satisfies readonly RegistryLabel[]
/** The bands offered as choices: NN ("non-employing or unknown") is a registry code, not a size a prospector picks. */
export const HEADCOUNT_CHOICES = HEADCOUNT_BANDS.filter((band) => band !== 'NN') as Exclude<HeadcountBand, 'NN'>[]

const TEXT_MAX = 200
const text = z.string().trim().max(TEXT_MAX).catch('')
/** A repeated parameter; an unknown value is refused (400), not dropped, so the user sees which filter was wrong. */
const list = <T extends z.ZodType<string>>(item: T) => z.array(item).max(100)

const companiesQuerySchema = z.object({
  /** A category (id or label): expands to its NAF codes. */
  sector: text,
  /** NAF codes already chosen (checkboxes). */
  naf: list(z.string().trim().toUpperCase().regex(/^\d{2}\.\d{2}[A-Z]$/)),
  /** An activity typed or picked by label ("10.71C — Boulangerie…"), added to the chosen codes. */
  nafAdd: text,
  region: text,
  department: text,
  /** A commune name or INSEE code, or a postcode. */
  city: text,
  headcount: list(z.enum(HEADCOUNT_CHOICES as [string, ...string[]])),
  legalForm: list(z.enum(LEGAL_FORM_FAMILY_IDS)),
  label: list(z.enum(REGISTRY_LABEL_IDS)),
  /** "Active only", on unless a submitted form leaves it unchecked. */
  activeOnly: z.boolean(),
  /** "Created after" (YYYY-MM-DD, a date input; empty: any date): read from the local registry store. */
  createdAfter: z.union([z.literal(''), z.iso.date()]),
})
export type CompaniesQuery = z.output<typeof companiesQuerySchema>

/** The form's fields, as named in the URL. */
export const COMPANIES_FIELDS = {
  sector: 'sector',
  naf: 'naf',
  nafAdd: 'nafAdd',
  region: 'region',
  department: 'department',
  city: 'city',
  headcount: 'headcount',
  legalForm: 'legalForm',
  label: 'label',
  activeOnly: 'active',
  createdAfter: 'createdAfter',
  run: 'run',
} as const

export const EMPTY_COMPANIES_QUERY: CompaniesQuery = { sector: '', naf: [], nafAdd: '', region: '', department: '', city: '', headcount: [], legalForm: [], label: [], activeOnly: true, createdAfter: '' }

export type CompaniesQueryRead = { ok: true; query: CompaniesQuery; run: boolean } | { ok: false; query: CompaniesQuery; run: boolean }

/**
 * The query of a `/companies` URL. A checkbox left unchecked sends nothing, so "active only" is off only in a form
 * that was submitted (`run`) without it; a bare `/companies` starts with it on. A refused value (unknown band, bad
 * NAF code) makes the read not ok, with the valid values kept so nothing typed is lost.
 */
export function readCompaniesQuery(params: URLSearchParams): CompaniesQueryRead {
  const run = params.get(COMPANIES_FIELDS.run) === '1'
  const raw = {
    sector: params.get(COMPANIES_FIELDS.sector) ?? '',
    naf: params.getAll(COMPANIES_FIELDS.naf),
    nafAdd: params.get(COMPANIES_FIELDS.nafAdd) ?? '',
    region: params.get(COMPANIES_FIELDS.region) ?? '',
    department: params.get(COMPANIES_FIELDS.department) ?? '',
    city: params.get(COMPANIES_FIELDS.city) ?? '',
    headcount: params.getAll(COMPANIES_FIELDS.headcount),
    legalForm: params.getAll(COMPANIES_FIELDS.legalForm),
    label: params.getAll(COMPANIES_FIELDS.label),
    activeOnly: run ? params.get(COMPANIES_FIELDS.activeOnly) === '1' : params.get(COMPANIES_FIELDS.activeOnly) !== '0',
    createdAfter: (params.get(COMPANIES_FIELDS.createdAfter) ?? '').trim(),
  }
  const parsed = companiesQuerySchema.safeParse(raw)
  if (parsed.success) return { ok: true, query: { ...parsed.data, naf: [...new Set(parsed.data.naf)] }, run }
  // Keep what is valid, field by field.
  const keep = <T>(schema: z.ZodType<T[]>, values: string[]): T[] => values.flatMap((value) => schema.safeParse([value]).data ?? [])
  const shape = companiesQuerySchema.shape
  return {
    ok: false,
    run,
    query: {
      ...EMPTY_COMPANIES_QUERY,
      sector: shape.sector.parse(raw.sector),
      nafAdd: shape.nafAdd.parse(raw.nafAdd),
      region: shape.region.parse(raw.region),
      department: shape.department.parse(raw.department),
      city: shape.city.parse(raw.city),
      naf: [...new Set(keep(shape.naf, raw.naf))],
      headcount: keep(shape.headcount, raw.headcount),
      legalForm: keep(shape.legalForm, raw.legalForm),
      label: keep(shape.label, raw.label),
      activeOnly: raw.activeOnly,
      createdAfter: shape.createdAfter.safeParse(raw.createdAfter).data ?? '',
    },
  }
}

/** The NAF code at the start of a picked option ("10.71C — Boulangerie…") or typed alone ("1071c"), else null. */
export function nafCodeIn(value: string): string | null {
  const match = /^\s*(\d{2})\.?(\d{2})\s*([a-z])\b/i.exec(value)
  return match ? `${match[1]}.${match[2]}${(match[3] as string).toUpperCase()}` : null
}


const NAF_OPTION_SEPARATOR = ' — '

/** The option text of a NAF code in the picker: the code first, so typing either the code or the label finds it. */
export function nafOptionText(code: string, label: string): string {
  return `${code}${NAF_OPTION_SEPARATOR}${label}`
}

/** A picker option's code and label (nafOptionText's parts), or null for text that names no code. */
export function nafOptionParts(text: string): { code: string; label: string | null } | null {
  const code = nafCodeIn(text)
  if (!code) return null
  const at = text.indexOf(NAF_OPTION_SEPARATOR)
  return { code, label: at === -1 ? null : text.slice(at + NAF_OPTION_SEPARATOR.length).trim() || null }
}

/** The place of a `/companies` search: France's region, department and commune (or postcode). */
export type CompaniesPlace = Pick<SearchCriteria, 'region' | 'department' | 'city'>

/** Picking a level clears the levels below it, as on the search page (withLevel). */
export function withCompaniesPlace(place: CompaniesPlace, level: keyof CompaniesPlace, value: string): CompaniesPlace {
  const { region, department, city } = withLevel({ sector: '', country: 'France', ...place }, level, value)
  return { region, department, city }
}
