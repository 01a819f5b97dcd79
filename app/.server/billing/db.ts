// The billing tables (supabase/migrations/20261122000030_billing.sql), typed from the generated schema
// (app/.server/db/schema.generated.ts) like the app's other tables.
// Privileged connection only (RLS on, no policies): every query filters by user explicitly.
import type { Kysely, Transaction } from 'kysely'
import { adminDb, type Database } from '#app/.server/db.ts'
import type { BillingSandboxSubscriptions } from '#app/.server/db/schema.generated.ts'

export type BillingSandboxSubscriptionsTable = BillingSandboxSubscriptions

type BillingDatabase = Database
export type BillingDb = Kysely<BillingDatabase>
export type BillingTrx = Transaction<BillingDatabase>

/** adminDb() under the billing name: the generated Database already has the billing tables. */
export function billingDb(): BillingDb {
  return adminDb()
}
