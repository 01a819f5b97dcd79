// Teams (issue 29) against the real database: invitations and seats, roles enforced in the commands (forms and API
// alike), one credit pool with a member's monthly cap held by the ledger function, the shared do-not-contact list,
// row-level security between teams (another team's id, forged claims, another team's key), and leaving / removal /
// ownership transfer / account deletion.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb, withUser } from '#app/.server/db.ts'
import { addDncEntries, readDncList, removeDncEntry } from '#app/.server/do-not-contact/store.ts'
import { createExport } from '#app/.server/exports/service.ts'
import { createApiKey, listApiKeys } from '#app/.server/api-v1/keys.ts'
import { getCreditsSummary } from '#app/.server/credits.ts'
import { acceptInvitation, inviteMember, previewInvitation, revokeInvitation } from '#app/.server/workspaces/invitations.ts'
import { changeMemberRole, leaveWorkspace, removeMember, setMemberCap, transferOwnership } from '#app/.server/workspaces/members.ts'
import { memberSession, personalSession } from '#app/.server/workspaces/current.ts'
import { readTeam } from '#app/.server/workspaces/team-view.ts'
import { readActivityPage } from '#app/.server/workspaces/activity.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import { createApiClient } from '#tests/support/api-client.ts'

let admin: pg.Pool
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 3 })
})
afterAll(async () => {
  await admin.end()
  await closeDb()
})

const ORIGIN = 'http://team.test'

async function signUp(plan?: 'basic' | 'professional' | 'premium'): Promise<SessionUser> {
  const id = randomUUID()
  const email = `${id}@example.test`
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, email, {}])
  if (plan) {
    await admin.query(
      `insert into public.user_subscriptions (user_id, plan_id, status, frequency, current_period_end) values ($1, $2, 'active', 'monthly', now() + interval '20 days')`,
      [id, plan],
    )
  }
  return (await memberSession(id, id))!
}

/** The link the invitation email carried (the local mailbox keeps it). */
async function invitationToken(email: string): Promise<string> {
  const { rows } = await admin.query<{ link: string }>('select link from auth.local_outbox where to_email = $1 order by created_at desc limit 1', [email])
  return rows[0]!.link.split('/invitations/')[1]!
}

/** `invitee` joins `owner`'s workspace with `role`, and acts in it. */
async function join(owner: SessionUser, invitee: SessionUser, role: 'admin' | 'member' | 'read_only', monthlyCap?: number): Promise<SessionUser> {
  const sent = await inviteMember(owner, { intent: 'invite', email: invitee.email, role, monthlyCap }, { origin: ORIGIN })
  expect(sent.ok).toBe(true)
  const accepted = await acceptInvitation(invitee, await invitationToken(invitee.email))
  expect(accepted).toEqual({ ok: true, workspaceId: owner.workspace.id })
  return (await memberSession(invitee.id, owner.workspace.id))!
}

const exportArgs = (user: SessionUser) => ({
  user,
  name: 'Boulangeries',
  criteria: { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' },
  enrichmentOptions: { ...NO_ENRICHMENT, phone: true },
  idempotencyKey: randomUUID(),
  lang: 'fr' as const,
})

describe('a new user', () => {
  test('has a personal workspace whose id is theirs, as its owner, and sees no difference', async () => {
    const solo = await signUp()
    expect(solo.workspace).toMatchObject({ id: solo.id, role: 'owner', personal: true })
    expect(solo.workspaces).toHaveLength(1)
    expect((await getCreditsSummary(solo)).remaining).toBe(100)
    expect((await getCreditsSummary(solo)).memberCap).toBeNull()
  })
})

describe('invitations and seats', () => {
  test('the plan bounds the seats (pending invitations hold theirs); a token works once, for its address, before it expires', async () => {
    const owner = await signUp('professional')
    const [b, c, d] = [await signUp(), await signUp(), await signUp()]
    expect((await inviteMember(owner, { intent: 'invite', email: b.email, role: 'member' }, { origin: ORIGIN })).ok).toBe(true)
    expect(await inviteMember(owner, { intent: 'invite', email: b.email.toUpperCase().toLowerCase(), role: 'member' }, { origin: ORIGIN })).toMatchObject({ ok: false, code: 'already_invited' })
    expect((await inviteMember(owner, { intent: 'invite', email: c.email, role: 'read_only' }, { origin: ORIGIN })).ok).toBe(true)
    // professional = 3 seats: the owner and two pending invitations.
    expect(await inviteMember(owner, { intent: 'invite', email: d.email, role: 'member' }, { origin: ORIGIN })).toMatchObject({ ok: false, code: 'seats_full' })

    const token = await invitationToken(b.email)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await previewInvitation(token)).toMatchObject({ state: 'pending', email: b.email, role: 'member' })
    expect(await acceptInvitation(c, token)).toMatchObject({ ok: false, code: 'wrong_account' })
    expect(await acceptInvitation(b, token)).toEqual({ ok: true, workspaceId: owner.workspace.id })
    expect(await acceptInvitation(b, token)).toMatchObject({ ok: false, code: 'invitation_invalid' })
    expect(await acceptInvitation(b, 'x'.repeat(43))).toMatchObject({ ok: false, code: 'invitation_invalid' })

    // Revoked: the seat comes back and the link stops working.
    const team = await readTeam(owner)
    const pendingC = team.invitations.find((invitation) => invitation.email === c.email)!
    expect(team.seats).toEqual({ used: 3, limit: 3, extra: 0 })
    expect((await revokeInvitation(owner, pendingC.id)).ok).toBe(true)
    expect(await acceptInvitation(c, await invitationToken(c.email))).toMatchObject({ ok: false, code: 'invitation_invalid' })
    expect((await readTeam(owner)).seats).toEqual({ used: 2, limit: 3, extra: 0 })

    // Expired after 7 days.
    expect((await inviteMember(owner, { intent: 'invite', email: d.email, role: 'member' }, { origin: ORIGIN })).ok).toBe(true)
    const later = new Date(Date.now() + 8 * 24 * 3600 * 1000)
    expect(await acceptInvitation(d, await invitationToken(d.email), later)).toMatchObject({ ok: false, code: 'invitation_expired' })
  })

  test('only owners and admins invite; a free trial has one seat', async () => {
    const owner = await signUp('premium')
    const member = await join(owner, await signUp(), 'member')
    await expect(inviteMember(member, { intent: 'invite', email: 'x@example.test', role: 'member' }, { origin: ORIGIN })).rejects.toMatchObject({ init: { status: 403 } })
    const solo = await signUp()
    expect(await inviteMember(solo, { intent: 'invite', email: 'y@example.test', role: 'member' }, { origin: ORIGIN })).toMatchObject({ ok: false, code: 'seats_full' })
  })
})

describe('roles, one pool, shared lists', () => {
  test('the done-means story: a capped member exports, read-only cannot, the pool is shared, an opt-out protects all', async () => {
    const owner = await signUp('professional')
    const member = await join(owner, await signUp(), 'member', 3)
    const viewer = await join(owner, await signUp(), 'read_only')

    expect(await createExport(exportArgs(viewer))).toMatchObject({ ok: false, status: 403, code: 'forbidden_role' })
    const made = await createExport(exportArgs(member))
    expect(made.ok).toBe(true)
    const exportId = (made as { exportId: string }).exportId
    const { rows: exp } = await admin.query('select user_id, created_by from public.exports where id = $1', [exportId])
    expect(exp[0]).toEqual({ user_id: owner.workspace.id, created_by: member.id })

    // The pool is the workspace's; the member's debits are theirs in the ledger and stop at their cap.
    for (let i = 0; i < 3; i++) {
      const { rows } = await admin.query(`select public.apply_credit_change($1, -1, 'enrichment', $2, $3) as ok`, [owner.workspace.id, `t:${exportId}:${i}`, exportId])
      expect(rows[0].ok).toBe(true)
    }
    await expect(admin.query(`select public.apply_credit_change($1, -1, 'enrichment', $2, $3)`, [owner.workspace.id, `t:${exportId}:3`, exportId])).rejects.toMatchObject({ code: 'LA402' })
    const { rows: ledger } = await admin.query(`select count(*)::int as n from public.credit_ledger where user_id = $1 and member_id = $2 and reason = 'enrichment'`, [owner.workspace.id, member.id])
    expect(ledger[0].n).toBe(3)
    expect(await getCreditsSummary(member)).toMatchObject({ remaining: 97, memberCap: { cap: 3, left: 0 } })
    expect(await createExport({ ...exportArgs(member), name: 'Encore' })).toMatchObject({ ok: false, code: 'member_cap_reached' })
    // The owner is uncapped and spends the same pool.
    expect(await getCreditsSummary(owner)).toMatchObject({ remaining: 97, memberCap: null })
    const usage = (await readTeam(owner)).members.find((row) => row.userId === member.id)
    expect(usage).toMatchObject({ spentThisMonth: 3, monthlyCap: 3 })

    // An opt-out a member adds is the team's; removing one is for admins.
    await addDncEntries(member, [{ kind: 'email', value: 'contact@boulangerie.test' }])
    expect(await readDncList((await import('#app/.server/db.ts')).adminDb(), owner.workspace.id)).toContainEqual({ kind: 'email', value: 'contact@boulangerie.test' })
    await expect(addDncEntries(viewer, [{ kind: 'email', value: 'a@b.test' }])).rejects.toMatchObject({ init: { status: 403 } })
    const { rows: dnc } = await admin.query('select id, created_by from public.do_not_contact where user_id = $1', [owner.workspace.id])
    expect(dnc[0].created_by).toBe(member.id)
    await expect(removeDncEntry(member, dnc[0].id)).rejects.toMatchObject({ init: { status: 403 } })
    expect(await removeDncEntry(owner, dnc[0].id)).toBe(true)

    // The activity log has it all, for admins only.
    const kinds = (await readActivityPage(owner, 0)).entries.map((entry) => entry.kind)
    expect(kinds).toEqual(expect.arrayContaining(['member_invited', 'member_joined', 'dnc_added', 'dnc_removed']))
    await expect(readActivityPage(member, 0)).rejects.toMatchObject({ init: { status: 403 } })
  })

  test('the API: a key acts for its member in the workspace, /me tells the role, a refused role is 403 forbidden_role', async () => {
    const owner = await signUp('professional')
    const viewer = await join(owner, await signUp(), 'read_only')
    const member = await join(owner, await signUp(), 'member')
    await expect(createApiKey(viewer, 'viewer key')).rejects.toMatchObject({ init: { status: 403 } })
    const key = (await createApiKey(member, 'member key'))!
    // The owner sees the team's keys, each named by its author; the member sees only their own.
    expect((await listApiKeys(owner)).find((listed) => listed.id === key.id)).toMatchObject({ mine: false, author: member.email })
    expect(await listApiKeys(viewer)).toEqual([])
    const api = createApiClient(key.key)
    const me = await api.GET('/api/v1/me')
    expect(me.data).toMatchObject({ user_id: member.id, workspace: { id: owner.workspace.id, role: 'member', monthly_credit_cap: null } })
    await changeMemberRole(owner, member.id, 'read_only')
    const refused = await api.POST('/api/v1/exports', { body: { name: 'x', criteria: { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' }, enrichments: ['phone'] } })
    expect(refused.response.status).toBe(403)
    expect(refused.error).toMatchObject({ code: 'forbidden_role' })
    // Removed from the team: the key acts for nobody.
    await removeMember(owner, member.id)
    expect((await api.GET('/api/v1/me')).response.status).toBe(401)
  })
})

describe('never pay twice, across the team', () => {
  test("a business one member paid for is free for the owner's export the next day; the ledger names who spent", async () => {
    const owner = await signUp('professional')
    const member = await join(owner, await signUp(), 'member')
    const ws = owner.workspace.id
    const memberExport = (await createExport(exportArgs(member))) as { exportId: string }
    const ownerExport = (await createExport({ ...exportArgs(owner), name: 'Le lendemain' })) as { exportId: string }
    const { rows: lead } = await admin.query(`insert into public.leads (user_id, source, place_id, name) values ($1, 'demo', $2, 'Boulangerie') returning id`, [ws, `team:${randomUUID()}`])
    for (const [position, exportId] of [memberExport.exportId, ownerExport.exportId].entries()) {
      await admin.query(`insert into public.export_leads (export_id, lead_id, user_id, position, phone_status) values ($1, $2, $3, $4, 'pending')`, [exportId, lead[0].id, ws, position])
    }
    const record = async (exportId: string) =>
      (await admin.query(`select public.record_lead_enrichment($1, $2, $3, $4, $5, 90) as result`, [ws, exportId, lead[0].id, { phone: 'success' }, { phone: '+33 2 98 00 00 00' }])).rows[0].result
    expect(await record(memberExport.exportId)).toMatchObject({ charged: 1, reused: 0 })
    expect(await record(ownerExport.exportId)).toMatchObject({ charged: 0, reused: 1 })
    const { rows: ledger } = await admin.query(`select member_id from public.credit_ledger where user_id = $1 and reason = 'enrichment'`, [ws])
    expect(ledger).toEqual([{ member_id: member.id }])
  })
})

describe('row-level security between teams', () => {
  test("another team's rows stay invisible, whatever workspace the claims name", async () => {
    const owner = await signUp('professional')
    const member = await join(owner, await signUp(), 'member')
    const made = await createExport(exportArgs(member))
    const exportId = (made as { exportId: string }).exportId
    const outsider = await signUp()
    // Claims naming a workspace the outsider does not belong to fall back to their own.
    const forged = { ...outsider.claims, workspace_id: owner.workspace.id }
    const seen = await withUser(forged, async (trx) => ({
      exports: await trx.selectFrom('exports').select('id').where('id', '=', exportId).execute(),
      members: await trx.selectFrom('workspace_members').select('user_id').where('workspace_id', '=', owner.workspace.id).execute(),
      ledger: await trx.selectFrom('credit_ledger').select('id').where('user_id', '=', owner.workspace.id).execute(),
    }))
    expect(seen).toEqual({ exports: [], members: [], ledger: [] })
    expect(await memberSession(outsider.id, owner.workspace.id)).toBeNull()
    // A member switched back to their personal workspace does not see the team's rows there either.
    const personal = personalSession(member.id, member.email)
    const inPersonal = await withUser(personal.claims, (trx) => trx.selectFrom('exports').select('id').where('id', '=', exportId).execute())
    expect(inPersonal).toEqual([])
    const inTeam = await withUser(member.claims, (trx) => trx.selectFrom('exports').select('id').where('id', '=', exportId).execute())
    expect(inTeam).toEqual([{ id: exportId }])
  })
})

describe('leaving, transfer, removal, deletion', () => {
  test('the owner hands over before leaving; a removed member loses access; a deleted owner passes the team on', async () => {
    const owner = await signUp('premium')
    const admin1 = await join(owner, await signUp(), 'admin')
    const member = await join(owner, await signUp(), 'member')
    expect(await leaveWorkspace(owner)).toMatchObject({ ok: false, code: 'owner_cannot_leave' })
    expect(await changeMemberRole(admin1, owner.id, 'member')).toMatchObject({ ok: false, code: 'cannot_manage' })
    expect((await setMemberCap(admin1, member.id, 10)).ok).toBe(true)
    expect((await transferOwnership(owner, admin1.id)).ok).toBe(true)
    expect((await memberSession(admin1.id, owner.workspace.id))?.workspace.role).toBe('owner')
    expect((await memberSession(owner.id, owner.workspace.id))?.workspace.role).toBe('admin')
    const formerOwner = (await memberSession(owner.id, owner.workspace.id))!
    expect((await leaveWorkspace(formerOwner)).ok).toBe(true)
    // Out of every team: a new personal workspace (the one with their id is the team's now).
    const { ensurePersonalWorkspace } = await import('#app/.server/workspaces/personal.ts')
    const fresh = await ensurePersonalWorkspace(owner.id)
    expect(fresh).not.toBe(owner.workspace.id)

    // The new owner's account is deleted: the team passes to its member, nothing of the team is lost.
    const { rows: before } = await admin.query('select count(*)::int as n from public.user_credits where user_id = $1', [owner.workspace.id])
    await admin.query('delete from auth.users where id = $1', [admin1.id])
    expect((await memberSession(member.id, owner.workspace.id))?.workspace.role).toBe('owner')
    const { rows: after } = await admin.query('select count(*)::int as n from public.user_credits where user_id = $1', [owner.workspace.id])
    expect(after[0].n).toBe(before[0].n)
    // A user alone in their workspace takes it with them.
    const solo = await signUp()
    await admin.query('delete from auth.users where id = $1', [solo.id])
    const { rows: gone } = await admin.query('select count(*)::int as n from public.workspaces where id = $1', [solo.id])
    expect(gone[0].n).toBe(0)
  })
})
