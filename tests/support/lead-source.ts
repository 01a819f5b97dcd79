import { expect } from 'vitest'
import { type Business, type LeadSource, LeadSourceError, type ResolvedCategory, type SearchParams } from '#app/.server/sources/types.ts'

/** Every business a source yields for one search. */
export async function collectBusinesses(source: LeadSource, params: SearchParams, category: ResolvedCategory | null, options: { limit?: number; signal?: AbortSignal } = {}) {
  const out: Business[] = []
  for await (const business of source.search(params, category, options)) out.push(business)
  return out
}

/** The LeadSourceError a search rejects with (fails the test when it resolves or rejects otherwise). */
export async function leadSourceError(promise: Promise<unknown>): Promise<LeadSourceError> {
  const error = await promise.then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(LeadSourceError)
  return error as LeadSourceError
}
