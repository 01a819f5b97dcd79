/**
 * What the push pages show, read as the member (RLS): the export's heading, a page of its leads to tick, the
 * workspace's connections and the export's recent pushes.
 */
import type { SessionUser } from '#app/.server/auth.ts'
import { withUser } from '#app/.server/db.ts'
import { CRM_PUSH_PAGE_SIZE, type CrmConnectionView, type CrmPushView, type PushableLead } from '#app/domain/crm.ts'
import { isUuid } from '#app/domain/ids.ts'
import { listCrmConnections } from './connections.ts'
import { listExportPushes } from './push.ts'

interface PushExportHeading {
  id: string
  name: string
  status: string
  leadCount: number
  isDemo: boolean
}

export interface PushPageView {
  export: PushExportHeading
  leads: PushableLead[]
  page: number
  pageCount: number
  connections: CrmConnectionView[]
  pushes: CrmPushView[]
}

async function readExportHeading(user: SessionUser, exportId: string): Promise<PushExportHeading | null> {
  if (!isUuid(exportId)) return null
  const row = await withUser(user.claims, async (trx) => {
    const found = await trx.selectFrom('exports').select(['id', 'name', 'status', 'lead_count']).where('id', '=', exportId).executeTakeFirst()
    if (!found) return null
    // Demo businesses are labelled as such wherever they are shown: a push of them says so.
    const demo = await trx.selectFrom('export_leads as el').innerJoin('leads as l', 'l.id', 'el.lead_id').select('l.id').where('el.export_id', '=', exportId).where('l.source', '=', 'demo').limit(1).executeTakeFirst()
    return { ...found, isDemo: Boolean(demo) }
  })
  return row ? { id: row.id, name: row.name, status: row.status, leadCount: row.lead_count, isDemo: row.isDemo } : null
}

export async function readPushPage(user: SessionUser, exportId: string, requestedPage: number): Promise<PushPageView | null> {
  const heading = await readExportHeading(user, exportId)
  if (!heading) return null
  const pageCount = Math.max(1, Math.ceil(heading.leadCount / CRM_PUSH_PAGE_SIZE))
  const page = Number.isInteger(requestedPage) ? Math.min(Math.max(1, requestedPage), pageCount) : 1
  const [leads, connections, pushes] = await Promise.all([
    withUser(user.claims, (trx) =>
      trx
        .selectFrom('export_leads as el')
        .innerJoin('leads as l', 'l.id', 'el.lead_id')
        .select(['l.id', 'l.name', 'l.city', 'l.website'])
        .where('el.export_id', '=', exportId)
        .orderBy('el.position')
        .orderBy('el.lead_id')
        .offset((page - 1) * CRM_PUSH_PAGE_SIZE)
        .limit(CRM_PUSH_PAGE_SIZE)
        .execute(),
    ),
    listCrmConnections(user),
    listExportPushes(user, exportId),
  ])
  return { export: heading, leads, page, pageCount, connections, pushes }
}
