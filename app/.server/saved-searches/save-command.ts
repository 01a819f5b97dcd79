// "Save this search" (the search page's dialog, a plain POST without JavaScript): the search's own fields and filters,
// read by the search's own schemas, plus the dialog's choices (SaveSearchSchema); the rules are saveSearch's (commands.ts).
import { parseWithZod } from '@conform-to/zod/v4'
import type { SubmissionResult } from '@conform-to/react'
import type { SessionUser } from '#app/.server/auth.ts'
import { searchLevelsWithData } from '#app/.server/search/locations.ts'
import { SaveSearchSchema } from '#app/domain/saved-search-commands.ts'
import { FILTER_FIELDS, readSearchFilters } from '#app/domain/search-filters.ts'
import { criteriaFromSearchParams } from '#app/domain/search.ts'
import { saveSearch } from './commands.ts'

/** What the dialog shows again after a refusal: conform's answer (messages under the fields) or a message above. */
export interface SaveFormState {
  result?: SubmissionResult<string[]>
  error?: string
  /** The refusal is one a plan change solves (the plan's cap of saved searches): the message links to the plans. */
  upgrade?: boolean
}

type Translate = (key: string, options?: Record<string, unknown>) => string

export async function saveSearchCommand({ user, formData, lang, t }: { user: SessionUser; formData: FormData; lang: 'fr' | 'en'; t: Translate }): Promise<{ ok: true; id: string } | { ok: false; status: number; state: SaveFormState }> {
  const submission = parseWithZod(formData, { schema: SaveSearchSchema })
  if (submission.status !== 'success') return { ok: false, status: 400, state: { result: submission.reply() } }
  const fields = new URLSearchParams([...formData.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
  const filters = readSearchFilters(new URLSearchParams(FILTER_FIELDS.map((field) => [field, fields.get(field) ?? ''])))
  if (!filters.ok) return { ok: false, status: 400, state: { result: submission.reply(), error: t(`search.filters.invalid.${filters.field}`) } }
  const saved = await saveSearch(user, {
    name: submission.value.name,
    criteria: criteriaFromSearchParams(fields, searchLevelsWithData),
    filters: filters.filters,
    options: submission.value.options,
    preset: submission.value.preset,
    maxLeads: submission.value.maxLeads ?? null,
    lang,
    ...(submission.value.timeZone ? { timeZone: submission.value.timeZone } : {}),
  })
  if (!saved.ok && saved.reason === 'location') return { ok: false, status: 400, state: { result: submission.reply(), error: t(saved.messageKey) } }
  if (!saved.ok && saved.reason === 'saved_search_limit') return { ok: false, status: 403, state: { result: submission.reply(), error: t('savedSearches.errors.limitReached', { count: saved.limit, plan: t(`plans.${saved.plan}`) }), upgrade: true } }
  if (!saved.ok) return { ok: false, status: 400, state: { result: submission.reply({ fieldErrors: { options: ['savedSearches.errors.noEnrichment'] } }) } }
  return { ok: true, id: saved.id }
}
