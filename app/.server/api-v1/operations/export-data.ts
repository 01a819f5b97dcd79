// An export's data: its leads as JSON, a page at a time, and its file, byte for byte the one the export page's
// download buttons give (app/.server/exports/download.ts, the same headers). Both read as the key's owner, so another
// user's export is not found.
import { z } from 'zod'
import { ApiLeadSchema } from '#app/domain/api-lead.ts'
import { DEFAULT_DOWNLOAD_PRESET, DOWNLOAD_PRESETS } from '#app/domain/download-presets.ts'
import { API_LEADS_MAX_LIMIT, LeadPositionSchema, loadApiLeadsPage } from '#app/.server/exports/api-leads.ts'
import { downloadHeaders, openExportDownload, type DownloadFormat } from '#app/.server/exports/download.ts'
import type { CsvSeparator } from '#app/domain/csv-format.ts'
import { CursorParam, decodeCursor, encodeCursor, limitParam, pageOf } from '../cursor.ts'
import { langParam } from '../lang.ts'
import { defineOperation } from '../operation.ts'
import { apiProblem } from '../problem.ts'
import { ExportIdParams } from './exports.ts'

/** The file formats of the download buttons: CSV with commas, CSV with semicolons (French Excel), Excel. */
const FILE_FORMATS = {
  csv: { format: 'csv', separator: 'comma' },
  csv_semicolon: { format: 'csv', separator: 'semicolon' },
  xlsx: { format: 'xlsx', separator: undefined },
} as const satisfies Record<string, { format: DownloadFormat; separator: CsvSeparator | undefined }>

const FILE_CONTENT_TYPES = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']

export const exportDataOperations = [
  defineOperation({
    id: 'listExportLeads',
    method: 'get',
    path: '/exports/{id}/leads',
    tag: 'Exports',
    summary: "An export's leads",
    description:
      "The downloaded file's fields in snake_case, each enriched value with the page it was found on and when, and each enrichment's status. In file order, a page at a time; a page of 1 000 leads is read in a few tens of milliseconds.",
    params: ExportIdParams,
    query: z.object({
      limit: limitParam(API_LEADS_MAX_LIMIT),
      cursor: CursorParam,
      verified_emails_only: z
        .enum(['true', 'false'])
        .default('false')
        .meta({ description: '`true`: only the leads with an address verified valid, and only those addresses.' }),
      lang: langParam('en', 'The language of the opening hours and registry labels'),
    }),
    responses: { 200: { description: 'A page of leads.', schema: pageOf(ApiLeadSchema) }, 404: { description: 'No such export of yours (`not_found`).' } },
    async handler({ ctx, params, query }) {
      const after = query.cursor ? decodeCursor(query.cursor, LeadPositionSchema) : null
      const page = await loadApiLeadsPage(ctx.user.claims, params.id, { limit: query.limit, after, verifiedEmailsOnly: query.verified_emails_only === 'true', lang: query.lang })
      if (!page) apiProblem(404, 'not_found', ctx.t('exports.errors.notFound'))
      return { status: 200, body: { data: page.data, next_cursor: page.next ? encodeCursor(page.next) : null } }
    },
  }),
  defineOperation({
    id: 'getExportFile',
    method: 'get',
    path: '/exports/{id}/file',
    tag: 'Exports',
    summary: "An export's file",
    description:
      'The same bytes as the download buttons of the export page: `csv` (commas), `csv_semicolon` (semicolons and decimal commas, for Excel in French), `xlsx`. `preset` picks the columns: `all` (default), `contacts`, `crm` (HubSpot and Pipedrive import headers). `lang` words the headers and the labels (opening hours, phone types, registry labels), as the download buttons do in the language of the page.',
    params: ExportIdParams,
    query: z.object({
      format: z.enum(Object.keys(FILE_FORMATS) as [keyof typeof FILE_FORMATS]).default('csv'),
      preset: z.enum(DOWNLOAD_PRESETS).default(DEFAULT_DOWNLOAD_PRESET),
      lang: langParam('en', 'The language of the column headers and labels'),
    }),
    responses: { 200: { description: 'The file, as an attachment.', contentTypes: FILE_CONTENT_TYPES }, 404: { description: 'No such export of yours (`not_found`).' } },
    async handler({ ctx, params, query }) {
      const { format, separator } = FILE_FORMATS[query.format]
      const file = await openExportDownload({ claims: ctx.user.claims, exportId: params.id, format, lang: query.lang, separator, preset: query.preset })
      if (!file) apiProblem(404, 'not_found', ctx.t('exports.errors.notFound'))
      return { response: new Response(file.body, { headers: downloadHeaders(file) }) }
    },
  }),
]
