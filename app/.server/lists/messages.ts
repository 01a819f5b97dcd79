/**
 * A refused file in the member's words (lists.refusals.*), with what the refusal knows: how many rows, how large,
 * which format it looked like, the first row of a file without a header. Shared by the upload page and the API.
 */
import type { TFunction } from 'i18next'
import type { ListFileRefusal } from './parse-file.ts'

/** The binary formats parse-file.ts recognises, each named in lists.formats. */
const KNOWN_FORMATS = new Set(['xls', 'xlsb', 'ods', 'numbers', 'pdf', 'image', 'zip'])

export function listRefusalMessage(t: TFunction, refusal: ListFileRefusal, language: string): string {
  const number = new Intl.NumberFormat(language)
  const megabytes = (bytes: number | undefined) => number.format(Math.ceil((bytes ?? 0) / 1024 / 1024))
  const { detail = {} } = refusal
  switch (refusal.refused) {
    case 'too_many_rows':
      return t('lists.refusals.too_many_rows', { rows: number.format(detail.rows ?? 0), max: number.format(detail.maxRows ?? 0) })
    case 'too_large':
      return t('lists.refusals.too_large', { size: megabytes(detail.bytes), max: megabytes(detail.maxBytes) })
    case 'zip_bomb':
      return t('lists.refusals.zip_bomb', { size: megabytes(detail.uncompressedBytes), max: megabytes(detail.maxUncompressedBytes) })
    case 'binary':
      return detail.format && KNOWN_FORMATS.has(detail.format) ? t('lists.refusals.binary_format', { format: t(`lists.formats.${detail.format}`) }) : t('lists.refusals.binary')
    case 'unsupported_encoding':
      return t(detail.encoding === 'utf-16' ? 'lists.refusals.utf16' : 'lists.refusals.invalid_utf8')
    case 'no_header':
      return t('lists.refusals.no_header', { firstRow: (detail.firstRow ?? []).slice(0, 4).join(' · ') })
    default:
      return t(`lists.refusals.${refusal.refused}`)
  }
}
