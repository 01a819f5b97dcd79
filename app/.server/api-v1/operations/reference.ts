// The account and the pickers' reference data: who the key acts for, categories and places.
import { WORKSPACE_ROLES } from '#app/domain/workspace-roles.ts'
import { z } from 'zod'
import { requireCreditsSummary } from '#app/.server/credits.ts'
import { LocationQueryError, searchLocations } from '#app/.server/search/locations.ts'
import { listCategories } from '#app/.server/taxonomy/categories.ts'
import { CATEGORY_ID_PATTERN, filterCategories } from '#app/domain/categories.ts'
import { PLAN_IDS } from '#app/domain/plans.ts'
import { CursorParam, decodeCursor, encodeCursor, limitParam, pageOf } from '../cursor.ts'
import { langParam } from '../lang.ts'
import { apiProblem } from '../problem.ts'
import { defineOperation } from '../operation.ts'

const SearchTextSchema = z.string().max(200).optional().meta({ description: 'Filters by name: case, accents, spaces and hyphens ignored, prefix matches first.' })

const MeSchema = z
  .object({
    user_id: z.uuid(),
    email: z.string().meta({ example: 'marie.dupont@example.fr' }),
    plan: z.enum(PLAN_IDS),
    credits: z.object({ remaining: z.int().min(0).meta({ example: 740 }), total: z.int().min(0).meta({ example: 1000 }) }).meta({ description: "Credits left in the workspace's pool and the allowance of the current period." }),
    workspace: z
      .object({
        id: z.uuid(),
        name: z.string().meta({ example: 'Dupont Conseil' }),
        role: z.enum(WORKSPACE_ROLES).meta({ description: "The key's member's role: what the key may do (`forbidden_role` otherwise)." }),
        monthly_credit_cap: z.object({ cap: z.int().min(0), left: z.int().min(0) }).nullable().meta({ description: "The member's monthly cap set by an admin and what is left of it this month; null when uncapped." }),
      })
      .meta({ id: 'Workspace', description: 'The workspace the key acts in: its exports, lists, credits and subscription are shared by its members.' }),
  })
  .meta({ id: 'Me' })

/** A category id, as GET /categories gives it and as `criteria.sector` takes and answers it. */
const CategoryIdSchema = z.string().regex(CATEGORY_ID_PATTERN).meta({ description: 'The category id (lowercase words and hyphens).', example: 'shop-bakery' })

const CategorySchema = z.object({ id: CategoryIdSchema, label: z.string().meta({ description: 'In `lang`.', example: 'Boulangerie' }) }).meta({ id: 'Category' })
const LocationSchema = z
  .object({ name: z.string().meta({ example: 'Bretagne' }), code: z.string().optional().meta({ description: 'ISO 3166 or INSEE code.', example: '53' }) })
  .meta({ id: 'Location' })

const LOCATION_LIMIT = 100
const LocationCursor = z.tuple([z.int().min(0).max(10_000_000)])

export const referenceOperations = [
  defineOperation({
    id: 'getMe',
    method: 'get',
    path: '/me',
    tag: 'Account',
    summary: "The key's member and workspace: role, plan and credits",
    responses: { 200: { description: 'The account the key acts for.', schema: MeSchema } },
    async handler({ ctx }) {
      const credits = await requireCreditsSummary(ctx.user)
      if (!credits.ok) apiProblem(503, 'service_unavailable', ctx.t('auth.errors.unavailable'), undefined, { 'Retry-After': '5' })
      return { status: 200, body: {
          user_id: ctx.user.id,
          email: ctx.user.email,
          plan: credits.plan,
          credits: { remaining: credits.remaining, total: credits.total },
          workspace: { id: ctx.user.workspace.id, name: ctx.user.workspace.name, role: ctx.user.workspace.role, monthly_credit_cap: credits.memberCap ?? null },
        },
      }
    },
  }),
  defineOperation({
    id: 'listCategories',
    method: 'get',
    path: '/categories',
    tag: 'Reference',
    summary: 'Business categories',
    description: 'Matched in both languages, like the search page picker: "bakery" finds Boulangerie in French.',
    query: z.object({ lang: langParam('fr', 'The language of the labels'), q: SearchTextSchema }),
    responses: { 200: { description: 'Matching categories, best first.', schema: z.object({ data: z.array(CategorySchema) }) } },
    async handler({ query }) {
      const { items } = filterCategories(listCategories(query.lang), query.q ?? '', { limit: query.q ? 50 : Number.POSITIVE_INFINITY })
      return { status: 200, body: { data: items.map(({ id, label }) => ({ id, label })) } }
    },
  }),
  defineOperation({
    id: 'listLocations',
    method: 'get',
    path: '/locations',
    tag: 'Reference',
    summary: 'Countries, regions, departments and cities',
    description: 'Each level needs its parents by name: `country` for regions, `country` and `region` for departments, and so on.',
    query: z.object({
      type: z.enum(['country', 'region', 'department', 'city']),
      country: z.string().max(200).optional().meta({ example: 'France' }),
      region: z.string().max(200).optional(),
      department: z.string().max(200).optional(),
      q: SearchTextSchema,
      lang: langParam('fr', 'The language of the names'),
      limit: limitParam(LOCATION_LIMIT, LOCATION_LIMIT),
      cursor: CursorParam,
    }),
    responses: { 200: { description: `A page of matching places (at most ${LOCATION_LIMIT}).`, schema: pageOf(LocationSchema) } },
    async handler({ ctx, query }) {
      const decoded = query.cursor ? decodeCursor(query.cursor, LocationCursor) : null
      try {
        const options = searchLocations({
          type: query.type,
          query: query.q,
          countryName: query.country,
          regionName: query.region,
          departmentName: query.department,
          lang: query.lang,
        })
        // The lists are fixed reference data in a fixed order: a position is a stable cursor.
        const offset = decoded?.[0] ?? 0
        const end = offset + query.limit
        const data = options.slice(offset, end).map(({ name, code }) => ({ name, ...(code ? { code } : {}) }))
        return { status: 200, body: { data, next_cursor: end < options.length ? encodeCursor([end]) : null } }
      } catch (error) {
        if (!(error instanceof LocationQueryError)) throw error
        const field = { countryName: 'country', regionName: 'region', departmentName: 'department' }[error.field as string] ?? error.field
        return apiProblem(422, 'validation_failed', ctx.t('api.v1.validationFailed'), [{ path: `query.${field}`, message: ctx.t(`api.v1.location.${error.code}`) }])
      }
    },
  }),
]
