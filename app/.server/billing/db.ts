// The billing tables (supabase/migrations/20261122000030_billing.sql) on top of the app's schema.
// Privileged connection only (RLS on, no policies): every query filters by user explicitly.
import type { ColumnType, Kysely, Transaction } from 'kysely'
import { adminDb, type Database, type JsonObject } from '#app/.server/db.ts'

type TimestampWithDefault = ColumnType<Date, Date | string | undefined, Date | string>
type Timestamp = ColumnType<Date, Date | string, Date | string>
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>

interface BillingEventsTable {
  id: string
  type: string
  source: 'stripe' | 'sandbox'
  user_id: string | null
  outcome: ColumnType<string, string | undefined, string>
  payload: ColumnType<JsonObject, JsonObject | undefined, JsonObject>
  received_at: TimestampWithDefault
}

interface BillingCustomersTable {
  user_id: string
  stripe_customer_id: string
  created_at: TimestampWithDefault
}

export interface BillingSandboxSubscriptionsTable {
  id: string
  user_id: string
  customer_id: string
  plan_id: 'basic' | 'professional' | 'premium'
  frequency: 'monthly' | 'annual'
  status: 'active' | 'canceled'
  cancel_at_period_end: ColumnType<boolean, boolean | undefined, boolean>
  current_period_start: Timestamp
  current_period_end: Timestamp
  ended_at: NullableTimestamp
  version: ColumnType<number, number | undefined, number>
  created_at: TimestampWithDefault
  updated_at: TimestampWithDefault
}

type BillingTables = {
  billing_events: BillingEventsTable
  billing_customers: BillingCustomersTable
  billing_sandbox_subscriptions: BillingSandboxSubscriptionsTable
}

type BillingDatabase = Database & BillingTables
export type BillingDb = Kysely<BillingDatabase>
export type BillingTrx = Transaction<BillingDatabase>

export function billingDb(): BillingDb {
  return adminDb().withTables<BillingTables>() as unknown as BillingDb
}
