// The credit history: every charge and reload of the ledger the balance is the sum of (GET /me gives the balance).
import { z } from 'zod'
import { listCreditLedger } from '#app/.server/credits.ts'
import { EnrichmentTypeSchema } from '#app/domain/api-export.ts'
import { CursorParam, decodeCursor, encodeCursor, limitParam, pageOf } from '../cursor.ts'
import { defineOperation } from '../operation.ts'

const LEDGER_REASONS = ['free_trial', 'subscription_reload', 'enrichment', 'adjustment'] as const

const CreditEntrySchema = z
  .object({
    id: z.string().regex(/^\d+$/).meta({ description: 'The entry id (digits).', example: '1042' }),
    delta: z.int().min(-1_000_000).max(1_000_000).meta({ description: 'Credits added (> 0) or spent (< 0).', example: -1 }),
    balance_after: z.int().min(0).max(100_000_000).meta({ example: 99 }),
    reason: z.enum(LEDGER_REASONS).meta({ description: 'free_trial, subscription_reload, enrichment (a successful enrichment of a lead) or adjustment.' }),
    export_id: z.uuid().nullable().meta({ description: 'The export the charge was for (it may since have been deleted).' }),
    enrichment_type: EnrichmentTypeSchema.nullable(),
    member_id: z.uuid().nullable().meta({ description: "The workspace member who spent (a charge, or its refund); null for reloads and the trial's grant." }),
    created_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'CreditEntry', description: 'A line of your credit history.' })

// A time the database can compare with (a forged cursor may carry year 0000, which Postgres refuses).
const CursorInstant = z.iso.datetime({ offset: true })
const LedgerCursor = z.tuple([CursorInstant, z.string().regex(/^\d{1,18}$/)])

export const creditOperations = [
  defineOperation({
    id: 'listCreditHistory',
    method: 'get',
    path: '/credits/history',
    tag: 'Account',
    summary: "Your workspace's credit history, newest first",
    description: "Every charge (one per successful enrichment of a lead, with the member who spent) and every reload of the workspace's pool; the balance of GET /me is their sum.",
    query: z.object({ limit: limitParam(100), cursor: CursorParam }),
    responses: { 200: { description: 'A page of the history.', schema: pageOf(CreditEntrySchema) } },
    async handler({ ctx, query }) {
      const after = query.cursor ? decodeCursor(query.cursor, LedgerCursor) : null
      const rows = await listCreditLedger(ctx.user, { limit: query.limit + 1, after })
      const page = rows.slice(0, query.limit).map((entry) => ({
        id: entry.id,
        delta: entry.delta,
        balance_after: entry.balanceAfter,
        reason: LEDGER_REASONS.find((reason) => reason === entry.reason) ?? 'adjustment',
        export_id: entry.exportId,
        enrichment_type: EnrichmentTypeSchema.nullable().catch(null).parse(entry.enrichmentType),
        member_id: entry.memberId,
        created_at: entry.createdAt,
      }))
      const last = page.at(-1)
      return { status: 200, body: { data: page, next_cursor: rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null } }
    },
  }),
]
