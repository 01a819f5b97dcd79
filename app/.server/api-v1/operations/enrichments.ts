// Enrich your own list (issue 31) through the API: rows as JSON (≤ 1 000) or a CSV / XLSX file as multipart, and the
// mapping of their columns; the same commands as the /lists pages (app/.server/lists/commands.ts), then the export
// command itself, so plan, credits, idempotency, limits and the `export.completed` webhook are an export's.
import { z } from 'zod'
import type { SessionUser } from '#app/.server/auth.ts'
import { confirmListMapping, LIST_COMMAND_STATUS, launchList, listFingerprint, storeJsonList, uploadList, type LaunchListArgs } from '#app/.server/lists/commands.ts'
import { listRefusalMessage } from '#app/.server/lists/messages.ts'
import { deleteUnlaunchedList, readListCells } from '#app/.server/lists/store.ts'
import { adminDb } from '#app/.server/db.ts'
import { holdsIdempotencyKey } from '#app/.server/exports/service.ts'
import { exportCallbackSecret } from '#app/.server/webhooks/endpoints.ts'
import { optionsFromValues } from '#app/domain/enrichment.ts'
import { guessColumnKinds, LIST_COLUMN_KINDS, type ListColumnKind } from '#app/domain/list-columns.ts'
import { WebhookUrlSchema } from '#app/domain/webhook-commands.ts'
import { ApiFiltersSchema, EnrichmentListSchema, toSearchFilters } from '../commands.ts'
import { exportProblem } from '../export-failure.ts'
import { defineOperation, type ApiContext, type UploadedFile } from '../operation.ts'
import { apiProblem } from '../problem.ts'
import { CreatedExportSchema, EXPORT_LOCATION, exportAnswer } from './exports.ts'
import { refuseWebhookUrl } from './webhooks.ts'
import { langParam } from '../lang.ts'
import { getInstance } from '#app/.server/i18n.ts'

/** The operation's own namespace of keys: a key a client used for POST /exports names another command. */
const enrichmentKey = (key: string) => `api:enrichments:${key}`

/** Rows one JSON request may carry; a bigger list is a file (LIST_MAX_ROWS). */
const API_LIST_MAX_ROWS = 1000

const MappingSchema = z.record(z.string().min(1).max(200), z.enum(LIST_COLUMN_KINDS)).meta({
  description:
    'What each column holds, by its name (a key of `rows`, a header of the file): `name`, `website`, `siren`, `siret`, `address`, `postal_code`, `city`, `phone`, `email`, `country` or `ignore`. A column left out is ignored. Without `mapping`, the columns are guessed from their names (French and English) and values, as the upload page does.',
  example: { 'Raison sociale': 'name', SIRET: 'siret', 'Code postal': 'postal_code' },
})

const CellSchema = z.union([z.string().max(2000), z.number(), z.null()])

const CreateEnrichmentBodySchema = z
  .object({
    name: z.string().max(1000).meta({ example: 'Salon 2026' }),
    rows: z
      .array(z.record(z.string().min(1).max(200), CellSchema))
      .min(1)
      .max(API_LIST_MAX_ROWS)
      .meta({ description: `Your companies, one object per row (${API_LIST_MAX_ROWS} at most; send a bigger list as a file). The keys are the columns; every row comes back in the file with its own values first.` }),
    mapping: MappingSchema.optional(),
    enrichments: EnrichmentListSchema.meta({ example: ['phone', 'email', 'admin_fr_info'] }),
    only_new: z.boolean().optional().meta({ description: 'Only businesses none of your exports delivered before.' }),
    exclude_insolvent: ApiFiltersSchema.shape.exclude_insolvent,
    exclude_radiated: ApiFiltersSchema.shape.exclude_radiated,
    webhook_url: WebhookUrlSchema.optional().meta({ description: 'Called once when the export ends, as for POST /exports.', example: 'https://example.com/leadatlas/callback' }),
  })
  .meta({
    id: 'CreateEnrichment',
    examples: [
      {
        name: 'Salon 2026',
        rows: [
          { 'Raison sociale': 'Boulangerie Martin', 'Code postal': '29200', Ville: 'Brest' },
          { 'Raison sociale': '', SIRET: '73282932000074' },
          { 'Site web': 'https://www.exemple-boulangerie.fr' },
        ],
        enrichments: ['phone', 'email', 'admin_fr_info'],
      },
    ],
  })

const UploadEnrichmentSchema = z
  .object({
    file: z.string().meta({ format: 'binary', example: 'salon-2026.csv', description: 'The list: CSV (any separator, UTF-8 or Windows-1252) or XLSX, up to 50 000 rows and 30 MB.' }),
    name: z.string().max(1000).optional().meta({ description: "The export's name; default the file's." }),
    mapping: z.string().max(100_000).optional().meta({ description: 'The mapping as JSON (as in the JSON body).', example: '{"Raison sociale":"name","SIRET":"siret"}' }),
    enrichments: z.union([z.string().max(500), z.array(z.string().max(50)).max(12)]).meta({ description: 'The enrichments: repeated fields, or one comma-separated.', example: 'phone,email,admin_fr_info' }),
    only_new: z.enum(['true', 'false']).optional(),
    exclude_insolvent: z.enum(['true', 'false']).optional(),
    exclude_radiated: z.enum(['true', 'false']).optional(),
    webhook_url: z.string().max(2000).optional(),
  })
  .meta({ id: 'UploadEnrichment' })

interface ListInput {
  listId: string
  headers: string[]
}

/** The mapping as columns of the table: named columns as said, the others ignored; unknown names refused (422). */
function columnsOf(ctx: ApiContext, headers: readonly string[], rows: readonly string[][], mapping: Record<string, ListColumnKind> | undefined, field: string): ListColumnKind[] {
  if (!mapping) return guessColumnKinds([...headers], rows.slice(0, 50).map((row) => [...row]))
  const unknown = Object.keys(mapping).filter((name) => !headers.includes(name))
  if (unknown.length) apiProblem(422, 'validation_failed', ctx.t('api.v1.validationFailed'), unknown.slice(0, 20).map((name) => ({ path: `${field}.${name}`, message: ctx.t('api.v1.unknownColumn') })))
  return headers.map((header) => mapping[header] ?? 'ignore')
}

function parsedMapping(ctx: ApiContext, text: string | undefined): Record<string, ListColumnKind> | undefined {
  if (text === undefined) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  const parsed = MappingSchema.safeParse(value)
  if (!parsed.success) apiProblem(422, 'validation_failed', ctx.t('api.v1.validationFailed'), [{ path: 'body.mapping', message: ctx.t('api.v1.badMapping') }])
  return parsed.data
}

/** The uploaded file as a stored list, or a 422 `file_refused` saying why (nothing is stored). */
async function listOfFile(ctx: ApiContext, file: UploadedFile): Promise<ListInput> {
  const uploaded = await uploadList({ user: ctx.user, fileName: file.name, bytes: file.bytes })
  if (uploaded.ok) return { listId: uploaded.listId, headers: uploaded.parsed.headers }
  if (uploaded.code === 'file_refused') {
    const status = uploaded.refusal.refused === 'too_large' || uploaded.refusal.refused === 'too_many_rows' ? 413 : 422
    return apiProblem(status, 'file_refused', listRefusalMessage(ctx.t, uploaded.refusal, getInstance(ctx.context).language))
  }
  return apiProblem(LIST_COMMAND_STATUS[uploaded.code], uploaded.code === 'forbidden_role' ? 'forbidden_role' : 'validation_failed', ctx.t(`lists.errors.${uploaded.code}`))
}

async function listOfRows(user: SessionUser, name: string, rows: ReadonlyArray<Record<string, string | number | null>>): Promise<ListInput> {
  return storeJsonList(user, rows, name || 'api')
}

/** Maps, then launches the stored list; a list no export took (replayed, refused) is removed again. */
async function launch(ctx: ApiContext, list: ListInput, mapping: Record<string, ListColumnKind> | undefined, args: Omit<LaunchListArgs, 'user' | 'listId' | 'fingerprint'>, mappingField: string) {
  let launched = false
  try {
    const firstRows = (await readListCells(adminDb(), list.listId, 50)).rows
    const columns = columnsOf(ctx, list.headers, firstRows, mapping, mappingField)
    const mapped = await confirmListMapping({ user: ctx.user, listId: list.listId, columns, lang: args.lang, sample: false })
    // No sample here (the run's figures are the answer), so no list budget is asked: mapping refusals only.
    if (!mapped.ok && !('refusal' in mapped)) {
      const detail = ctx.t(mapped.messageKey ?? `lists.errors.${mapped.code}`)
      return apiProblem(mapped.code === 'mapping_invalid' ? 422 : LIST_COMMAND_STATUS[mapped.code], 'validation_failed', detail, [{ path: mappingField, message: detail }])
    }
    if (!mapped.ok) throw new Error('createEnrichment: a mapping without a sample was rate limited')
    const result = await launchList({ ...args, user: ctx.user, listId: list.listId, fingerprint: listFingerprint({ headers: list.headers, rows: mapped.table.rows }, columns) })
    if (!result.ok) return 'status' in result ? exportProblem(result, ctx.t) : apiProblem(LIST_COMMAND_STATUS[result.code], 'validation_failed', ctx.t(`lists.errors.${result.code}`))
    launched = !result.duplicate
    return result
  } finally {
    if (!launched) await deleteUnlaunchedList(ctx.user, list.listId)
  }
}

export const enrichmentOperations = [
  defineOperation({
    id: 'createEnrichment',
    requires: 'export',
    method: 'post',
    path: '/enrichments',
    tag: 'Enrichments',
    summary: 'Enrich your own list',
    description:
      'Your companies as JSON rows (up to 1 000), or a CSV / XLSX file as `multipart/form-data` (up to 50 000 rows), with what each column holds. Each row is matched to a business by its SIRET or SIREN (the registry), its website, or its name with its postal code or city (the registry and the map), then enriched as an export: credits only for what is found, never twice; rows nothing matches come back "not found" and cost nothing; your do-not-contact list is honoured. The export\'s file has your columns first. With `Idempotency-Key`, the same key and list within 24 hours return the same export (200).',
    headers: z.object({
      'Idempotency-Key': z.string().min(1).max(200).optional().meta({ description: 'Any string up to 200 characters: a retry with it never creates a second export.' }),
    }),
    query: z.object({ lang: langParam('en', 'The language the businesses are described in: category names in `business_types`') }),
    body: CreateEnrichmentBodySchema,
    upload: { schema: UploadEnrichmentSchema, file: 'file' },
    limit: 'exportCreate',
    isReplay: async ({ ctx, headers }) => Boolean(headers['Idempotency-Key']) && holdsIdempotencyKey(ctx.user, enrichmentKey(headers['Idempotency-Key']!)),
    responses: {
      202: { description: 'The list was stored and its export is running.', schema: CreatedExportSchema, location: EXPORT_LOCATION },
      200: { description: 'The same Idempotency-Key and list were sent before: that export.', schema: CreatedExportSchema, location: EXPORT_LOCATION },
      402: { description: 'No credits left (`insufficient_credits`).' },
      409: { description: 'The Idempotency-Key was used with another list (`idempotency_conflict`).' },
      413: { description: 'The file is over 30 MB or 50 000 rows (`file_refused`).' },
      422: { description: 'The file cannot be read — binary, wrong encoding, no header, an XLSX that unpacks too large (`file_refused`); or the mapping names a column the rows do not have, or maps no column a company can be matched by (`validation_failed`).' },
    },
    async handler({ ctx, headers, query, body, upload }) {
      const fields = upload?.fields as z.output<typeof UploadEnrichmentSchema> | undefined
      const webhookUrl = fields ? fields.webhook_url : body.webhook_url
      if (webhookUrl !== undefined) await refuseWebhookUrl(ctx, webhookUrl, 'body.webhook_url')
      const enrichments = fields ? [fields.enrichments].flat().flatMap((value) => value.split(',')).map((value) => value.trim()).filter(Boolean) : body.enrichments
      const checked = EnrichmentListSchema.safeParse(enrichments)
      if (!checked.success) apiProblem(422, 'validation_failed', ctx.t('api.v1.validationFailed'), [{ path: 'body.enrichments', message: ctx.t('api.v1.badEnrichments') }])
      const mapping = fields ? parsedMapping(ctx, fields.mapping) : body.mapping
      const name = fields ? (fields.name ?? upload!.file.name.replace(/\.[a-z\d]{1,5}$/i, '')) : body.name
      const list = upload ? await listOfFile(ctx, upload.file) : await listOfRows(ctx.user, name, body.rows)
      const result = await launch(ctx, list, mapping, {
        name,
        enrichmentOptions: optionsFromValues(checked.data ?? [], { france: true }),
        idempotencyKey: headers['Idempotency-Key'] ? enrichmentKey(headers['Idempotency-Key']) : '',
        lang: query.lang,
        onlyNew: fields ? fields.only_new === 'true' : body.only_new,
        filters: toSearchFilters(fields ? { exclude_insolvent: fields.exclude_insolvent === 'true', exclude_radiated: fields.exclude_radiated === 'true' } : body),
        ...(webhookUrl !== undefined ? { webhookUrl } : {}),
      }, 'body.mapping')
      const answer = await exportAnswer(ctx, result.exportId, result.duplicate ? 200 : 202, { located: true })
      const secret = answer.body.webhook_url ? await exportCallbackSecret(ctx.user.workspace.id, result.exportId) : null
      if (!answer.body.webhook_url || !secret) return answer
      return { ...answer, body: { ...answer.body, webhook: { url: answer.body.webhook_url, secret } }, headers: { ...answer.headers, 'Cache-Control': 'no-store' } }
    },
  }),
]
