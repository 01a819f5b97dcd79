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
