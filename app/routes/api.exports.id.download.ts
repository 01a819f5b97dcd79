import { data } from 'react-router'
import type { Route } from './+types/api.exports.id.download'
import { requireApiUser } from '#app/.server/api.ts'
import { isUuid } from '#app/domain/ids.ts'
import { downloadHeaders, openExportDownload } from '#app/.server/exports/download.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { csvDialect } from '#app/domain/csv-format.ts'
import { DEFAULT_DOWNLOAD_PRESET, isDownloadPreset } from '#app/domain/download-presets.ts'
import { rememberDownloadPreset } from '#app/.server/exports/download-preference.ts'
import { isEmailFilter } from '#app/domain/email-quality.ts'

/**
 * GET /api/exports/{id}/download?userId=&format=csv|xlsx[&separator=semicolon|comma][&preset=all|contacts|crm][&emails=all|valid]
 * (SPEC §7): a streamed file download, read as the user (RLS), so another user's export is "not found".
 * `separator` picks the CSV dialect (app/domain/csv-format.ts); without it, the interface
 * language's (French: ";" and decimal commas, which a French Excel opens in columns).
 * `preset` picks the columns (app/domain/download-presets.ts) and is remembered for the user's next
 * download; without it, every column and nothing remembered (API clients get a stable file).
 * `emails=valid` keeps only the email addresses verified valid (README "Email verification").
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireApiUser(context)
  const t = getInstance(context).t
  const url = new URL(request.url)
  const userId = url.searchParams.get('userId')
  if (userId && userId !== user.id) return data({ error: t('api.forbidden') }, { status: 403 })
  const format = url.searchParams.get('format') ?? 'csv'
  if (format !== 'csv' && format !== 'xlsx') return data({ error: t('exports.errors.badFormat') }, { status: 400 })
  const lang = getLocale(context) === 'fr' ? 'fr' : 'en'
  const dialect = csvDialect(url.searchParams.get('separator'), lang)
  if (!dialect) return data({ error: t('exports.errors.badFormat') }, { status: 400 })
  const requestedPreset = url.searchParams.get('preset') || null
  if (requestedPreset !== null && !isDownloadPreset(requestedPreset)) return data({ error: t('exports.errors.badPreset') }, { status: 400 })
  const emails = url.searchParams.get('emails') || 'all'
  if (!isEmailFilter(emails)) return data({ error: t('exports.errors.badFormat') }, { status: 400 })
  if (!isUuid(params.id)) return data({ error: t('exports.errors.notFound') }, { status: 404 })
  const preset = requestedPreset ?? DEFAULT_DOWNLOAD_PRESET
  const file = await openExportDownload({ claims: user.claims, exportId: params.id, format, lang, separator: dialect.separator, preset, emails })
  if (!file) return data({ error: t('exports.errors.notFound') }, { status: 404 })
  // Remembered only for a download that happens, and only when our own page asked for it: a GET is a top-level
  // navigation another site can trigger, and it must not change the user's settings (browsers send Sec-Fetch-Site).
  // If remembering fails, the opened file gives its connection back.
  if (requestedPreset && request.headers.get('sec-fetch-site') === 'same-origin') {
    try {
      await rememberDownloadPreset(user, requestedPreset)
    } catch (error) {
      await file.body.cancel()
      throw error
    }
  }
  return new Response(file.body, { headers: downloadHeaders(file) })
}
