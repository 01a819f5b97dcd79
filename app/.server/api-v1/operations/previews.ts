// The free preview: count, first results and what an export of them would cost, as the search page shows them.
import { z } from 'zod'
import { requireCreditsSummary } from '#app/.server/credits.ts'
import { env } from '#app/.server/env.server.ts'
import { currentFillRates } from '#app/.server/exports/fill-rates.ts'
import { paidPositions } from '#app/.server/exports/paid-positions.ts'
import { runPreview } from '#app/.server/search/preview.ts'
import { optionsFromValues, selectedTypes } from '#app/domain/enrichment.ts'
import { exportCost, exportLeadCount } from '#app/domain/export-cost.ts'
import { PreviewBodySchema, toSearchCriteria, toSearchFilters } from '../commands.ts'
import { langParam } from '../lang.ts'
import { defineOperation } from '../operation.ts'
import { apiProblem, type ProblemCode } from '../problem.ts'
import { onBehalfOf } from '#app/.server/limits/account.ts'

const LEAD_SOURCES = ['demo', 'osm', 'google'] as const

const PreviewResultSchema = z
  .object({
    source: z.enum(LEAD_SOURCES).meta({ description: 'Where the business was found, as a lead\'s `source`.' }),
    source_id: z.string().meta({ description: "The business id at its source, as the `source_id` of the lead an export makes of it (a do-not-contact entry names it `<source>:<source_id>`).", example: 'node/2845113021' }),
    name: z.string().meta({ example: 'Boulangerie Le Fournil' }),
    address: z.string().nullable().meta({ example: '12 rue de Siam, 29200 Brest' }),
    business_types: z.array(z.string()).meta({ example: ['bakery'] }),
    website: z.string().nullable().meta({ example: 'https://lefournil-brest.fr' }),
    rating: z.number().min(0).max(5).nullable().meta({ example: 4.6 }),
    review_count: z.int().min(0).nullable().meta({ example: 128 }),
  })
  .meta({ id: 'PreviewResult' })

const PreviewSchema = z
  .object({
    count: z.int().min(0).meta({ description: 'Businesses matching the search and filters.' }),
    count_exact: z.boolean().meta({ description: 'false when `count` is a lower bound (the source stops counting past its cap).' }),
    results: z.array(PreviewResultSchema).max(20),
    source: z.enum(LEAD_SOURCES).meta({ description: '`demo` data is generated, not real businesses.' }),
    estimate: z
      .object({
        leads: z.int().min(0).meta({ description: 'Leads an export would hold (the count within the export cap).' }),
        max_credits: z.int().min(0).meta({ description: 'If every enrichment succeeds; results you already paid for are free.' }),
        expected_credits: z.int().min(0).meta({ description: 'From the observed success rate of each enrichment.' }),
      })
      .nullable()
      .meta({ description: 'With `enrichments` in the request; else null.' }),
  })
  .meta({ id: 'Preview' })

const PREVIEW_PROBLEMS: Record<string, [number, ProblemCode]> = {
  invalid_location: [422, 'invalid_location'],
  plan: [403, 'plan_restricted'],
  rate_limited: [503, 'source_unavailable'],
}

export const previewOperations = [
  defineOperation({
    id: 'createPreview',
    method: 'post',
    path: '/previews',
    tag: 'Search',
    summary: 'Count and preview a search (free)',
    description: 'Costs no credit. With `enrichments`, also estimates what an export of this search would cost.',
    query: z.object({ lang: langParam('en', 'The language the businesses are searched in: category names in `business_types`, and names and addresses where the source has them in several languages') }),
    body: PreviewBodySchema,
    limit: 'preview',
    responses: {
      200: { description: 'The count, up to 20 businesses and the estimate.', schema: PreviewSchema },
      403: { description: 'Your plan needs a finer location (`plan_restricted`).' },
      422: { description: 'The location is not one GET /locations gives (`invalid_location`).' },
      503: { description: 'The business source is unavailable (`source_unavailable`).' },
    },
    async handler({ ctx, query, body }) {
      const criteria = toSearchCriteria(body.criteria)
      const credits = await requireCreditsSummary(ctx.user)
      const outcome = await onBehalfOf(ctx.user.workspace.id, () =>
        runPreview(criteria, { lang: query.lang, plan: credits.plan, signal: ctx.request.signal, filters: toSearchFilters(body.filters) }),
      )
      if (!outcome.ok) {
        const [status, code] = PREVIEW_PROBLEMS[outcome.error] ?? (outcome.status < 500 ? [422, 'validation_failed' as const] : [503, 'source_unavailable' as const])
        const detail = ctx.t(outcome.messageKey)
        apiProblem(status, code, detail, outcome.field ? [{ path: `body.criteria.${outcome.field}`, message: detail }] : undefined, status === 503 ? { 'Retry-After': '30' } : undefined)
      }
      const types = body.enrichments ? selectedTypes(optionsFromValues(body.enrichments, { france: outcome.france })) : null
      const leads = exportLeadCount(outcome.count.value, env.EXPORT_MAX_LEADS, null)
      const cost = types
        ? exportCost({
            leads,
            types,
            fillRates: await currentFillRates(),
            balance: credits.remaining,
            paid: await paidPositions(ctx.user, outcome.source, outcome.exportPlaceIds, env.ENRICHMENT_REUSE_DAYS),
          })
        : null
      return {
        status: 200,
        body: {
          count: outcome.count.value,
          count_exact: outcome.count.exact,
          results: outcome.results.map((lead) => ({
            source: outcome.source,
            // A preview lead's id is `<source>:<place id>` (search/preview.ts): the source is what precedes the first ':'.
            source_id: lead.id.slice(lead.id.indexOf(':') + 1),
            name: lead.name,
            address: lead.address,
            business_types: lead.businessTypes,
            website: lead.website,
            rating: lead.rating,
            review_count: lead.reviewCount,
          })),
          source: outcome.source,
          estimate: cost ? { leads: cost.leads, max_credits: cost.maxCredits, expected_credits: cost.expectedCredits } : null,
        },
      }
    },
  }),
]
