import { expect } from 'vitest'
import { resolveCriteria, searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { type Business, type LeadSource, LeadSourceError, type ResolvedCategory, type SearchParams } from '#app/.server/sources/types.ts'

/** A search as a test writes it: the request's fields, any left out. */
export type SearchInput = Partial<Record<'sector' | 'country' | 'countryCode' | 'region' | 'department' | 'city', string>> & { lang: 'fr' | 'en' }

/** Sources only take resolved searches (resolve-criteria.ts): the test's search resolved, failing the test when refused. */
export function resolvedParams({ lang, ...fields }: SearchInput): SearchParams {
  const resolution = resolveCriteria({ sector: '', country: '', region: '', department: '', city: '', ...fields })
  if (!resolution.ok) throw new Error(`test search refused: ${resolution.field} (${resolution.messageKey})`)
  return searchParamsOf(resolution.criteria, lang)
}

/** Every business a source yields for one search. */
export async function collectBusinesses(source: LeadSource, search: SearchInput, category: ResolvedCategory | null, options: { limit?: number; signal?: AbortSignal } = {}) {
  const out: Business[] = []
  for await (const business of source.search(resolvedParams(search), category, options)) out.push(business)
  return out
}

/** The LeadSourceError a search rejects with (fails the test when it resolves or rejects otherwise). */
export async function leadSourceError(promise: Promise<unknown>): Promise<LeadSourceError> {
  const error = await promise.then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(LeadSourceError)
  return error as LeadSourceError
}

/** A source that counts the searches it is asked for (and finds nothing): proves a refused command never reached one. */
export function countingSource(): LeadSource & { calls: SearchParams[] } {
  const calls: SearchParams[] = []
  return {
    name: 'demo',
    scope: 'counting',
    calls,
    // eslint-disable-next-line require-yield -- a source that finds nothing
    async *search(params) {
      calls.push(params)
    },
  }
}
