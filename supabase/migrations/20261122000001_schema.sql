-- LeadAtlas schema: tables, indexes and updated_at triggers (SPEC §3, ARCHITECTURE §4).
-- Credits functions live in 20261122000002_credits.sql, RLS and grants in 20261122000003_rls.sql.
-- Runs on hosted Supabase as-is (auth.users, auth.uid() and the API roles exist there);
-- locally supabase/bootstrap.sql provides them first.

-- Keeps updated_at honest whichever code path writes the row.
create function public.set_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- ---------------------------------------------------------------------------
-- Profiles: one row per auth user, created by the trigger in the credits migration.
create table public.users (
  id uuid primary key references auth.users (id) on delete cascade,
  first_name text,
  last_name text,
  company_name text,
  phone text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------
-- Credits. The balance is a cache of the ledger: sum(credit_ledger.delta) = remaining_credits.
-- Both only change through public.apply_credit_change().
create table public.user_credits (
  user_id uuid primary key references public.users (id) on delete cascade,
  remaining_credits integer not null default 0 check (remaining_credits >= 0),
  total_credits integer not null default 0 check (total_credits >= 0),
  updated_at timestamptz not null default now()
);

create table public.credit_ledger (
  id bigserial primary key,
  user_id uuid not null references public.users (id) on delete cascade,
  delta integer not null, -- < 0 debit, > 0 credit
  balance_after integer not null check (balance_after >= 0),
  reason text not null check (reason in ('free_trial', 'subscription_reload', 'enrichment', 'adjustment')),
  -- Deliberately not foreign keys: deleting an export or lead must not erase billing history.
  export_id uuid,
  lead_id uuid,
  enrichment_type text,
  -- 'enrich:<export>:<lead>:<type>', 'stripe:<event id>', 'free_trial:<user>': a charge or reload
  -- with the same key can never be applied twice.
  idempotency_key text unique,
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index credit_ledger_user_id_created_at_idx on public.credit_ledger (user_id, created_at desc);

-- ---------------------------------------------------------------------------
create table public.user_subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  plan_id text not null,
  status text not null check (status in ('active', 'canceling', 'canceled', 'incomplete', 'past_due')),
  frequency text check (frequency in ('monthly', 'annual')),
  current_period_end timestamptz,
  next_credit_date timestamptz,
  stripe_customer_id text,
  stripe_subscription_id text unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index user_subscriptions_user_id_created_at_idx on public.user_subscriptions (user_id, created_at desc);

-- ---------------------------------------------------------------------------
create table public.exports (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  name text not null default 'Unnamed Export',
  search_params jsonb,
  enrichment_options jsonb,
  status text not null default 'pending'
    check (status in ('pending', 'processing', 'completed', 'failed', 'interrupted')),
  search_status text,
  enrichment_status text,
  enrichment_status_details jsonb,
  lead_count integer not null default 0,
  total_credits_used integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz,
  download_url text,
  can_resume boolean not null default false,
  progress_percentage numeric(5, 2) not null default 0,
  progress_info jsonb,
  bbox jsonb,
  polygon jsonb,
  country text,
  region text,
  department text,
  city text,
  business_types text[] not null default '{}',
  -- Sent by the create form: a double submit inserts one export (ARCHITECTURE §6).
  idempotency_key text,
  constraint exports_user_id_idempotency_key_key unique (user_id, idempotency_key)
);
create index exports_user_id_created_at_idx on public.exports (user_id, created_at desc);
create index exports_user_id_status_idx on public.exports (user_id, status);

-- ---------------------------------------------------------------------------
-- Leads are owned by a user (RLS) and deduplicated per source + place id, so the same
-- business found by two exports of one user is stored (and enriched) once.
create table public.leads (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  source text not null,
  business_id text,
  place_id text,
  name text not null default 'Unnamed Business',
  phone text,
  website text,
  city text,
  postal_code text,
  country_code text,
  latitude double precision,
  longitude double precision,
  review_count integer,
  rating numeric,
  timezone text,
  google_maps_url text,
  business_types text[] not null default '{}',
  pricing text,
  working_hours jsonb,
  operational_state text,
  description text,
  email text[] not null default '{}',
  technologies jsonb not null default '{}'::jsonb,
  social_media jsonb not null default '{}'::jsonb,
  admin_fr_info jsonb,
  full_address text,
  full_address_array text[],
  is_claimed boolean,
  verified boolean,
  photos jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Its leading user_id column also serves every "leads of this user" lookup and the FK.
  constraint leads_user_id_source_place_id_key unique (user_id, source, place_id)
);

-- ---------------------------------------------------------------------------
-- The export <-> lead join, with the enrichment state of each (lead, type) task of that export.
create table public.export_leads (
  export_id uuid not null references public.exports (id) on delete cascade,
  lead_id uuid not null references public.leads (id) on delete cascade,
  user_id uuid not null references public.users (id) on delete cascade,
  position integer not null,
  phone_status text not null default 'not_required'
    check (phone_status in ('not_required', 'pending', 'success', 'not_found', 'failed')),
  website_status text not null default 'not_required'
    check (website_status in ('not_required', 'pending', 'success', 'not_found', 'failed')),
  email_status text not null default 'not_required'
    check (email_status in ('not_required', 'pending', 'success', 'not_found', 'failed')),
  technologies_status text not null default 'not_required'
    check (technologies_status in ('not_required', 'pending', 'success', 'not_found', 'failed')),
  social_media_status text not null default 'not_required'
    check (social_media_status in ('not_required', 'pending', 'success', 'not_found', 'failed')),
  admin_fr_info_status text not null default 'not_required'
    check (admin_fr_info_status in ('not_required', 'pending', 'success', 'not_found', 'failed')),
  primary key (export_id, lead_id)
);
-- Lead table of the export detail page: ordered by position, paged by 10.
create index export_leads_export_id_position_idx on public.export_leads (export_id, position);
-- FK side of leads.id (lead deletion) and "which exports contain this lead".
create index export_leads_lead_id_idx on public.export_leads (lead_id);
-- FK side of users.id, so deleting an account does not scan the whole join.
create index export_leads_user_id_idx on public.export_leads (user_id);

-- ---------------------------------------------------------------------------
-- Worker-only cache of enrichment lookups (website crawls, registry answers), shared by all users.
create table public.enrichment_cache (
  key text primary key,
  kind text not null,
  value jsonb,
  fetched_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------
create trigger users_set_updated_at before update on public.users
  for each row execute function public.set_updated_at();
create trigger user_credits_set_updated_at before update on public.user_credits
  for each row execute function public.set_updated_at();
create trigger user_subscriptions_set_updated_at before update on public.user_subscriptions
  for each row execute function public.set_updated_at();
create trigger exports_set_updated_at before update on public.exports
  for each row execute function public.set_updated_at();
create trigger leads_set_updated_at before update on public.leads
  for each row execute function public.set_updated_at();
