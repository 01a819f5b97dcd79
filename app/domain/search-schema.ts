// The search criteria as one schema (SPEC §4, §7): the search page's GET form (criteriaFromSearchParams) and
// the POST /api/search/preview JSON body read them with the same field rules. Pure: shared by client and server.
import { z } from 'zod'
import { isLanguage, type Language } from '../i18n.ts'
import type { SearchCriteria } from './search.ts'

/** Absent or null is empty; text is trimmed and capped (no place or category name is longer). */
const CriterionText = z
  .string()
  .nullish()
  .transform((value) => (value ?? '').trim().slice(0, 200))

/** Field order is the order the API reports a bad field in. */
const CRITERIA_FIELDS = {
  sector: CriterionText,
  country: CriterionText,
  countryCode: CriterionText,
  region: CriterionText,
  department: CriterionText,
  city: CriterionText,
}

/** An empty countryCode is left out, so "no explicit code" has one spelling. */
function withoutEmptyCode<T extends { countryCode: string }>({ countryCode, ...criteria }: T): Omit<T, 'countryCode'> & { countryCode?: string } {
  return countryCode ? { ...criteria, countryCode } : criteria
}

export const SearchCriteriaSchema = z.object(CRITERIA_FIELDS).transform((criteria): SearchCriteria => withoutEmptyCode(criteria))

/** POST /api/search/preview {sector, country, countryCode, region, department, city, lang}: an unknown lang falls back to the interface's. */
// extend(), not a spread of CRITERIA_FIELDS: the bundler can then drop this unused schema from the browser's chunks.
export const PreviewBodySchema = z
  .object(CRITERIA_FIELDS)
  .extend({
    // Optional on the way in: zod refuses a missing key whose schema ends in a transform.
    lang: z
      .unknown()
      .optional()
      .transform((lang): Language | undefined => (isLanguage(lang) ? lang : undefined)),
  })
  .transform(({ lang, ...criteria }) => ({ lang, criteria: withoutEmptyCode(criteria) as SearchCriteria }))

/** The field a refused preview body names in its message (the first bad one, in field order). */
export function firstBadField(error: z.ZodError): string {
  return String(error.issues[0]?.path[0] ?? 'body')
}
