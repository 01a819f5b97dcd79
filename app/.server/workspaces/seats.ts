// Seats beyond the plan's (issue 29 item 3): the owner buys them as a quantity of Stripe's per-seat price on the
// workspace's subscription (STRIPE_PRICE_SEAT), or in the local sandbox at once; the webhook keeps the count in step
// with Stripe's (a change made in Stripe's own dashboard or portal lands here too).
import type { Transaction } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { billingMode } from '#app/.server/billing/config.ts'
import { getStripe } from '#app/.server/billing/stripe.ts'
import { readPlan } from '#app/.server/credits.ts'
import { adminDb, type Database } from '#app/.server/db.ts'
import { env } from '#app/.server/env.server.ts'
import { seatLimit } from '#app/domain/team.ts'
import { recordTeamEvent } from './events.ts'
import { lockSeats } from './invitations.ts'
import { requirePermission } from './roles.ts'

export type SeatsFailure = 'seats_need_plan' | 'seats_in_use' | 'seats_unavailable' | 'seats_provider_failed'
export type SeatsResult = { ok: true; extraSeats: number } | { ok: false; code: SeatsFailure }

async function seatsTaken(trx: Transaction<Database>, workspaceId: string, now: Date): Promise<number> {
  const members = await trx.selectFrom('workspace_members').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()
  const pending = await trx.selectFrom('workspace_invitations').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId).where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirstOrThrow()
  return Number(members.n) + Number(pending.n)
}

/** Whether extra seats can be bought here: the sandbox, or Stripe with its per-seat price. */
export function seatsOnSale(): boolean {
  const mode = billingMode()
  return mode === 'sandbox' || (mode === 'stripe' && Boolean(env.STRIPE_PRICE_SEAT))
}

/** Sets the workspace's extra seats to `extraSeats` (never below the seats in use), billing them first with Stripe. */
export async function setExtraSeats(owner: SessionUser, extraSeats: number, now = new Date()): Promise<SeatsResult> {
  requirePermission(owner, 'billing')
  const workspaceId = owner.workspace.id
  if (!seatsOnSale()) return { ok: false, code: 'seats_unavailable' }
  const mode = billingMode()
  return adminDb().transaction().execute(async (trx): Promise<SeatsResult> => {
    await lockSeats(trx, workspaceId)
    const plan = await readPlan(trx, workspaceId)
    if (plan === 'free_trial') return { ok: false, code: 'seats_need_plan' }
    if (seatLimit(plan, extraSeats) < (await seatsTaken(trx, workspaceId, now))) return { ok: false, code: 'seats_in_use' }
    if (mode === 'stripe') {
      const subscription = await trx.selectFrom('user_subscriptions').select('stripe_subscription_id').where('user_id', '=', workspaceId)
        .where('status', 'in', ['active', 'canceling']).orderBy('created_at', 'desc').executeTakeFirst()
      if (!subscription?.stripe_subscription_id) return { ok: false, code: 'seats_need_plan' }
      try {
        await billSeats(subscription.stripe_subscription_id, workspaceId, extraSeats)
      } catch (error) {
        console.error('[billing] seat quantity not changed:', error instanceof Error ? error.message : error)
        return { ok: false, code: 'seats_provider_failed' }
      }
    }
    const before = await trx.updateTable('workspaces').set({ extra_seats: extraSeats }).where('id', '=', workspaceId).returning('extra_seats').executeTakeFirstOrThrow()
    await recordTeamEvent(trx, { workspaceId, actorId: owner.id, kind: 'seats_changed', subject: String(extraSeats), data: { extraSeats: before.extra_seats } })
    return { ok: true, extraSeats }
  })
}

/** The seat item of the subscription set to `quantity` (created, changed, or removed at 0), prorated by Stripe. */
async function billSeats(subscriptionId: string, workspaceId: string, quantity: number): Promise<void> {
  const stripe = getStripe()
  const price = env.STRIPE_PRICE_SEAT!
  const subscription = await stripe.subscriptions.retrieve(subscriptionId)
  const item = subscription.items.data.find((candidate) => candidate.price.id === price)
  const idempotencyKey = `leadatlas-seats:${workspaceId}:${subscriptionId}:${quantity}:${item?.quantity ?? 0}`
  if (item && quantity === 0) await stripe.subscriptionItems.del(item.id, { proration_behavior: 'create_prorations' })
  else if (item) await stripe.subscriptionItems.update(item.id, { quantity, proration_behavior: 'create_prorations' }, { idempotencyKey })
  else if (quantity > 0) await stripe.subscriptionItems.create({ subscription: subscriptionId, price, quantity, proration_behavior: 'create_prorations' }, { idempotencyKey })
}

/** From a subscription event: the seat price's quantity becomes the workspace's extra seats (0 when it has none). */
export async function syncExtraSeats(trx: Transaction<Database>, workspaceId: string, items: ReadonlyArray<{ price?: { id?: string | null } | null; quantity?: number | null }>): Promise<void> {
  const price = env.STRIPE_PRICE_SEAT
  if (!price) return
  const quantity = items.find((item) => item.price?.id === price)?.quantity ?? 0
  await trx.updateTable('workspaces').set({ extra_seats: Math.max(0, Math.min(1000, quantity)) }).where('id', '=', workspaceId).execute()
}
