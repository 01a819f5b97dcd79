// The do-not-contact list: what no export may ever deliver. The same store and rules as /settings/do-not-contact.
import { z } from 'zod'
import { withUser } from '#app/.server/db.ts'
import { addDncEntries, removeDncEntry } from '#app/.server/do-not-contact/store.ts'
import { DNC_KINDS, DNC_MAX_ENTRY_LENGTH, parseDncEntry, type DncEntry } from '#app/domain/do-not-contact.ts'
import { sql } from 'kysely'
import { CreatedCursor, CursorParam, decodeCursor, encodeCursor, limitParam, pageOf } from '../cursor.ts'
import { defineOperation } from '../operation.ts'
import { apiProblem } from '../problem.ts'

const DncEntrySchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(DNC_KINDS),
    value: z.string().meta({ description: 'Canonical: lowercase email or domain, E.164 phone, SIREN/SIRET digits, `<source>:<place id>`.', example: 'contact@example.fr' }),
    business_name: z.string().nullable().meta({ example: 'Boulangerie Le Fournil' }),
    business_city: z.string().nullable().meta({ example: 'Brest' }),
    created_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'DoNotContactEntry' })

/** One request adds at most this many entries (a CSV of the whole list goes through /settings/do-not-contact). */
const MAX_ENTRIES_PER_REQUEST = 5_000
const ListCursor = CreatedCursor

export const doNotContactOperations = [
  defineOperation({
    id: 'listDoNotContact',
    method: 'get',
    path: '/do-not-contact',
    tag: 'Do not contact',
    summary: 'Your do-not-contact list, newest first',
    query: z.object({ limit: limitParam(100), cursor: CursorParam }),
    responses: { 200: { description: 'A page of entries.', schema: pageOf(DncEntrySchema) } },
    async handler({ ctx, query }) {
      const after = query.cursor ? decodeCursor(query.cursor, ListCursor) : null
      const rows = await withUser(ctx.user.claims, (trx) => {
        let select = trx.selectFrom('do_not_contact').select(['id', 'kind', 'value', 'business_name', 'business_city', 'created_at']).where('user_id', '=', ctx.user.workspace.id)
        if (after) select = select.where(sql<boolean>`(created_at, id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`)
        return select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute()
      })
      const page = rows.slice(0, query.limit).map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() }))
      const last = page.at(-1)
      return { status: 200, body: { data: page, next_cursor: rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null } }
    },
  }),
  defineOperation({
    id: 'addDoNotContact',
    requires: 'dncAdd',
    method: 'post',
    path: '/do-not-contact',
    tag: 'Do not contact',
    summary: 'Add entries',
    description:
      'Each entry as a person writes it: an email, a domain (`@example.fr` for every address there), a phone number (French numbers without +33 are read as French), a SIREN or SIRET, or a business id (`osm:node/42`). All or nothing: if one is unreadable, none is added and `errors` names it. Entries already listed are skipped; addresses newly listed are also removed from the leads you already hold.',
    body: z
      .object({
        entries: z
          .array(z.string().max(DNC_MAX_ENTRY_LENGTH))
          .min(1)
          .max(MAX_ENTRIES_PER_REQUEST)
          .meta({ example: ['contact@example.fr', '@competitor.fr', '04 78 00 00 00', '552 100 554'] }),
      })
      .meta({ id: 'AddDoNotContact' }),
    limit: 'dncWrite',
    responses: {
      201: { description: 'The entries are listed.', schema: z.object({ added: z.int().min(0).meta({ description: 'Entries new to the list.', example: 4 }) }) },
      409: { description: 'The list would pass its cap of 50 000 entries (`too_many_entries`).' },
    },
    async handler({ ctx, body }) {
      const entries: DncEntry[] = []
      const errors: { path: string; message: string }[] = []
      body.entries.forEach((raw, index) => {
        const entry = parseDncEntry(raw)
        if (entry) entries.push(entry)
        else errors.push({ path: `body.entries.${index}`, message: ctx.t('doNotContact.errors.unreadable') })
      })
      if (errors.length) apiProblem(422, 'validation_failed', ctx.t('doNotContact.errors.rejected', { count: errors.length }), errors.slice(0, 50))
      const result = await addDncEntries(ctx.user, entries)
      if (!result.ok) apiProblem(409, 'too_many_entries', ctx.t('doNotContact.errors.tooMany', { room: result.room }))
      return { status: 201, body: { added: result.added } }
    },
  }),
  defineOperation({
    id: 'deleteDoNotContact',
    requires: 'dncRemove',
    method: 'delete',
    path: '/do-not-contact/{id}',
    tag: 'Do not contact',
    summary: 'Remove an entry',
    params: z.object({ id: z.uuid().meta({ description: 'The entry id.', example: '5d3b2a1c-4e6f-4a8b-9c0d-1e2f3a4b5c6d' }) }),
    limit: 'dncWrite',
    responses: { 204: { description: 'Removed.' } },
    async handler({ ctx, params }) {
      if (!(await removeDncEntry(ctx.user, params.id))) apiProblem(404, 'not_found', ctx.t('api.v1.notFound'))
      return { status: 204 }
    },
  }),
]
