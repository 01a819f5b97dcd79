// The export modal's answer when a create command made no export (the search page and /companies post the same
// modal): a limit's refusal or the command's own, as the modal shows it — under the field it concerns, else above.
import { data, type RouterContextProvider } from 'react-router'
import type { ExportFormState } from '#app/components/exports/export-modal.tsx'
import { env } from '#app/.server/env.server.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { refusalAnswer, type Refusal } from '#app/.server/rate-limit.ts'
import { exportErrorMessageKey } from '#app/domain/exports.ts'
import { optionsFromValues } from '#app/domain/enrichment.ts'
import { EnrichmentChoiceSchema } from '#app/domain/export-commands.ts'
import type { ExportFailure } from './service.ts'

type Sent = Pick<ExportFormState, 'name' | 'options' | 'maxLeads'>

/** The modal's fields as they were sent, so a refused form renders again as the user left it. */
export function sentExportForm(payload: Record<string, unknown>, france: boolean): Pick<ExportFormState, 'name' | 'options' | 'maxLeads' | 'onlyNew'> {
  const chosen = EnrichmentChoiceSchema.safeParse([payload.options ?? []].flat())
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')
  return { name: text(payload.name), options: optionsFromValues(chosen.data ?? [], { france }), maxLeads: text(payload.maxLeads), onlyNew: payload.onlyNew === 'on' }
}

export function exportFormRefusal(context: Readonly<RouterContextProvider>, sent: Sent, outcome: { refused: Refusal } | { result: ExportFailure }) {
  if ('refused' in outcome) {
    const { status, message, headers } = refusalAnswer(context, outcome.refused)
    return data({ ...sent, error: message } satisfies ExportFormState, { status, headers })
  }
  const { t } = getInstance(context)
  const failure = outcome.result
  if (failure.code === 'max_leads_invalid') {
    return data({ ...sent, maxLeadsError: t('exports.errors.maxLeadsInvalid', { max: env.EXPORT_MAX_LEADS }) } satisfies ExportFormState, { status: failure.status })
  }
  const message = t(failure.messageKey ?? exportErrorMessageKey(failure.code, 'exports.errors.createFailed'))
  const nameError = failure.code === 'name_required' || failure.code === 'name_too_long'
  return data(
    { ...sent, code: failure.code, error: nameError ? undefined : message, fieldError: nameError ? message : undefined } satisfies ExportFormState,
    { status: failure.status },
  )
}
