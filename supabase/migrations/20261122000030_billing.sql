-- Billing (SPEC §4 Subscription, §7 payment calls): webhook idempotency and the Stripe customer
-- of each user. Additive only. Both tables are written by the privileged billing code (webhook,
-- sandbox, reload job) and are invisible to API users: RLS on, no policy, no grant.

-- Every payment event applied, keyed by its event id (Stripe's evt_…, or the sandbox's own ids).
-- The billing code inserts here `on conflict do nothing` in the same transaction as the changes the
-- event makes, so an event delivered twice (Stripe retries, a double-submitted sandbox form) is
-- applied once.
create table public.billing_events (
  id text primary key,
  type text not null,
  source text not null check (source in ('stripe', 'sandbox')),
  user_id uuid references public.users (id) on delete set null,
  -- What the event did ('applied' or why it was ignored), for support and audits.
  outcome text not null default 'applied',
  payload jsonb not null default '{}'::jsonb,
  received_at timestamptz not null default now()
);
create index billing_events_user_id_received_at_idx on public.billing_events (user_id, received_at desc);

-- The Stripe customer created for a user (one per user), so checkout and the customer portal reuse it.
create table public.billing_customers (
  user_id uuid primary key references public.users (id) on delete cascade,
  stripe_customer_id text not null unique,
  created_at timestamptz not null default now()
);

-- The hourly reload job looks for current subscriptions whose next credit date has come.
create index user_subscriptions_next_credit_date_idx on public.user_subscriptions (next_credit_date)
  where status in ('active', 'canceling');

revoke all on table public.billing_events, public.billing_customers from anon, authenticated;
grant all on table public.billing_events, public.billing_customers to service_role;

alter table public.billing_events enable row level security;
alter table public.billing_customers enable row level security;

-- The local payment sandbox (no STRIPE_SECRET_KEY): its own record of the "provider side" of each
-- test subscription, the way Stripe keeps its own. The sandbox changes a row here, then sends the
-- matching Stripe-shaped event through the same handler as the webhook. `version` makes a
-- double-submitted sandbox form harmless (the event id is derived from it).
create table public.billing_sandbox_subscriptions (
  id text primary key,
  user_id uuid not null references public.users (id) on delete cascade,
  customer_id text not null,
  plan_id text not null check (plan_id in ('basic', 'professional', 'premium')),
  frequency text not null check (frequency in ('monthly', 'annual')),
  status text not null check (status in ('active', 'canceled')),
  cancel_at_period_end boolean not null default false,
  current_period_start timestamptz not null,
  current_period_end timestamptz not null,
  ended_at timestamptz,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index billing_sandbox_subscriptions_user_id_idx on public.billing_sandbox_subscriptions (user_id, created_at desc);
create trigger billing_sandbox_subscriptions_set_updated_at before update on public.billing_sandbox_subscriptions
  for each row execute function public.set_updated_at();

revoke all on table public.billing_sandbox_subscriptions from anon, authenticated;
grant all on table public.billing_sandbox_subscriptions to service_role;
alter table public.billing_sandbox_subscriptions enable row level security;
