-- Registry events (issue 32): a local store of French open data, fed by a daily import, read by the risk shield
-- (BODACC announcements by SIREN), the new-companies watch and the "created after" filter of /companies
-- (establishments by place, activity and creation date). Public data, read and written by the server only:
-- RLS on and no policy, no grant to the API roles.

-- One row per establishment (SIRET), from the INSEE Sirene daily flux, the monthly stock file (`npm run
-- registry:load FILE`) or the demo universe. The newest processing wins (processed_at), so replaying a day, or
-- loading an older stock over a fresher flux, changes nothing.
create table public.registry_establishments (
  siret text primary key check (siret ~ '^[0-9]{14}$'),
  siren text not null check (siren ~ '^[0-9]{9}$'),
  name text not null default '',
  -- NAF rév. 2 code as Sirene writes it ("10.71C").
  naf text,
  -- Catégorie juridique of the unité légale ("5710"; 1000 = sole trader).
  legal_form text,
  -- Tranche d'effectifs of the establishment ("00".."53"; null = not filled in).
  headcount text,
  postcode text,
  -- Code officiel géographique of the commune ("69123"), and its department ("69", "2A", "971").
  commune text,
  department text,
  city text,
  address text,
  state text not null check (state in ('A', 'F')),
  created_on date,
  head_office boolean not null default false,
  processed_at timestamptz not null,
  source text not null check (source in ('flux', 'stock', 'demo')),
  imported_at timestamptz not null default now()
);
-- The watch and the "created after" filter: a place and a creation window, then the activity.
create index registry_establishments_department_created on public.registry_establishments (department, created_on);
create index registry_establishments_commune_created on public.registry_establishments (commune, created_on);
create index registry_establishments_siren on public.registry_establishments (siren);

-- One row per BODACC announcement (its DILA id: edition letter + parution + number). `announcement` is the record as
-- app/domain/registry-risk.ts readBodaccRecord normalises it; riskStatus reads those back.
create table public.registry_announcements (
  id text primary key,
  sirens text[] not null,
  published_on date not null,
  family text not null,
  announcement jsonb not null,
  imported_at timestamptz not null default now()
);
create index registry_announcements_sirens on public.registry_announcements using gin (sirens);
create index registry_announcements_published on public.registry_announcements (published_on);

-- One row per source and day imported: a day is taken by one worker at a time (status running, lease), resumes at
-- its cursor after a crash, and is done once. A done day is never fetched again unless asked (replay).
create table public.registry_imports (
  source text not null check (source in ('sirene', 'bodacc')),
  day date not null,
  status text not null default 'running' check (status in ('running', 'done', 'failed')),
  cursor text,
  rows integer not null default 0 check (rows >= 0),
  error text,
  lease_until timestamptz,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  primary key (source, day)
);

alter table public.registry_establishments enable row level security;
alter table public.registry_announcements enable row level security;
alter table public.registry_imports enable row level security;
revoke all on public.registry_establishments, public.registry_announcements, public.registry_imports from anon, authenticated;
grant select, insert, update, delete on public.registry_establishments, public.registry_announcements, public.registry_imports to service_role;
