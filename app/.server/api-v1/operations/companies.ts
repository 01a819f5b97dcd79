// The registry-first search of /companies: count and preview establishments of the company registry (the same
// command as the page, app/.server/registry/preview.ts, with the plan's location rule), and the NAF codes to filter on.
import { z } from 'zod'
import { SirenSchema, SiretSchema } from '#app/domain/api-lead.ts'
import { requireCreditsSummary } from '#app/.server/credits.ts'
import { onBehalfOf } from '#app/.server/limits/account.ts'
import { nafCodeList } from '#app/.server/registry/companies-query.ts'
import { previewRegistry } from '#app/.server/registry/preview.ts'
import { normalizeName } from '#app/.server/geo/france.ts'
import { ApiRegistryFiltersSchema, toRegistryFilters } from '../commands.ts'
import { defineOperation } from '../operation.ts'
import { apiProblem, type ProblemCode } from '../problem.ts'

const EstablishmentSchema = z
  .object({
    siren: SirenSchema,
    siret: SiretSchema.nullable(),
    name: z.string().nullable().meta({ description: 'Null for a sole trader whose name is withheld.', example: 'BOULANGERIE LE FOURNIL' }),
    address: z.string().nullable().meta({ example: '12 RUE DE SIAM 29200 BREST' }),
    postal_code: z.string().nullable().meta({ example: '29200' }),
    commune_code: z.string().nullable().meta({ description: 'INSEE commune code.', example: '29019' }),
    city: z.string().nullable().meta({ example: 'BREST' }),
    naf_code: z.string().nullable().meta({ description: 'NAF rév. 2 activity code.', example: '10.71C' }),
    headcount_band: z.string().nullable().meta({ description: 'INSEE headcount band code.', example: '02' }),
    legal_form_code: z.string().nullable().meta({ description: 'INSEE legal category code.', example: '5499' }),
    creation_date: z.string().nullable().meta({ example: '2012-03-01' }),
    active: z.boolean(),
    head_office: z.boolean(),
  })
  .meta({ id: 'RegistryEstablishment', description: 'An establishment of the company registry, with codes (labels are in the files).' })

const REGISTRY_PROBLEMS: Record<string, [number, ProblemCode]> = {
  invalid_location: [422, 'invalid_location'],
  invalid_filters: [422, 'validation_failed'],
  plan: [403, 'plan_restricted'],
}

export const companyOperations = [
  defineOperation({
    id: 'createRegistryPreview',
    method: 'post',
    path: '/registry/previews',
    tag: 'Search',
    summary: 'Count and preview a registry search (free)',
    description:
      'The /companies search: the company registry’s count of the establishments matching the filters (`capped` past its 10 000) and the first 20. Costs no credit; export them with POST /exports and `registry`.',
    body: ApiRegistryFiltersSchema,
    limit: 'preview',
    responses: {
      200: {
        description: 'The count and up to 20 establishments.',
        schema: z
          .object({
            count: z.int().min(0).max(10_000).meta({ example: 164 }),
            capped: z.boolean().meta({ description: 'true: the registry counts no further, there are more.' }),
            results: z.array(EstablishmentSchema).max(20),
          })
          .meta({ id: 'RegistryPreview' }),
      },
      403: { description: 'Your plan needs a finer place (`plan_restricted`).' },
      422: { description: 'The place is not a region, department, commune or postcode the registry knows (`invalid_location`).' },
      503: { description: 'The registry is unavailable (`source_unavailable`).' },
    },
    async handler({ ctx, body }) {
      const credits = await requireCreditsSummary(ctx.user)
      const outcome = await onBehalfOf(ctx.user.workspace.id, () => previewRegistry(toRegistryFilters(body), { plan: credits.plan, signal: ctx.request.signal }))
      if (!outcome.ok) {
        const [status, code] = REGISTRY_PROBLEMS[outcome.error] ?? [503, 'source_unavailable' as const]
        const detail = ctx.t(outcome.messageKey)
        apiProblem(status, code, detail, status === 422 ? [{ path: 'body.place', message: detail }] : undefined, status === 503 ? { 'Retry-After': '30' } : undefined)
      }
      return {
        status: 200,
        body: {
          count: outcome.total,
          capped: outcome.capped,
          results: outcome.establishments.map((e) => ({
            siren: e.siren,
            siret: e.siret,
            name: e.name,
            address: e.address,
            postal_code: e.postalCode,
            commune_code: e.communeCode,
            city: e.city,
            naf_code: e.activityCode,
            headcount_band: e.headcountBand,
            legal_form_code: e.legalFormCode,
            creation_date: e.creationDate,
            active: e.active,
            head_office: e.headOffice,
          })),
        },
      }
    },
  }),
  defineOperation({
    id: 'listNafCodes',
    method: 'get',
    path: '/naf-codes',
    tag: 'Reference',
    summary: 'NAF activity codes',
    description: 'The NAF rév. 2 subclasses the registry filters on (`naf_codes`), with their official French label; `q` matches a code or words of the label.',
    query: z.object({ q: z.string().max(200).optional().meta({ example: 'boulangerie' }) }),
    responses: {
      200: {
        description: 'Matching codes.',
        schema: z.object({ data: z.array(z.object({ code: z.string().meta({ example: '10.71C' }), label: z.string().meta({ example: 'Boulangerie et boulangerie-pâtisserie' }) }).meta({ id: 'NafCode' })) }),
      },
    },
    async handler({ query }) {
      const wanted = normalizeName(query.q ?? '')
      const compact = wanted.replace(/[^0-9a-z]/g, '')
      const data = nafCodeList().filter((entry) => !wanted || normalizeName(entry.label).includes(wanted) || entry.code.replace('.', '').toLowerCase().startsWith(compact))
      return { status: 200, body: { data } }
    },
  }),
]
