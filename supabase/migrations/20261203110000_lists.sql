-- Enrich your own list (issue 31): a member uploads a file of companies (CSV or XLSX), maps its columns, sees the
-- match rate and the cost on a sample, and launches an export of it. The upload is kept as the user gave it (every
-- cell as text, in file order) until the export is made from it; the export's leads keep their row's cells, so the
-- downloaded file has the user's columns first.
-- Lists belong to the workspace (`user_id`, as every data table: docs/teams.md). Members read them under RLS;
-- writes run on the privileged connection after the command checked the member's role (app/.server/lists/).

create table public.lists (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.workspaces (id) on delete cascade,
  created_by uuid references public.users (id) on delete set null,
  file_name text not null check (length(file_name) between 1 and 200),
  format text not null check (format in ('csv', 'xlsx', 'json')),
  headers text[] not null check (cardinality(headers) between 1 and 1000),
  row_count integer not null check (row_count between 0 and 50000),
  -- Rows the parse left out for repeating an earlier row cell for cell.
  repeated_rows integer not null default 0 check (repeated_rows >= 0),
  -- {"columns": ["name", "ignore", ...]}: what each column holds, as the member confirmed it (null: not yet).
  mapping jsonb,
  -- The match on a sample (app/domain/list-match.ts ListSampleSummary), computed when the mapping is saved.
  sample jsonb,
  export_id uuid references public.exports (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index lists_user_idx on public.lists (user_id, created_at desc, id);

create table public.list_rows (
  list_id uuid not null references public.lists (id) on delete cascade,
  user_id uuid not null references public.workspaces (id) on delete cascade,
  -- Where the row is in the file (the CSV line it starts on, the sheet's row number).
  line integer not null check (line >= 1),
  cells text[] not null,
  primary key (list_id, line)
);

-- An export made from a list names it; its leads keep their row's cells and how the row was matched
-- ({"kind": "siret" | "siren" | "domain" | "name", "status": "matched" | "not_found", "confidence": 0..1, "line": n}).
alter table public.exports add column list_id uuid references public.lists (id) on delete set null;
alter table public.export_leads add column list_cells text[];
alter table public.export_leads add column list_match jsonb;

comment on table public.lists is 'A workspace''s uploaded lists of companies, their column mapping and sample match, until an export enriches them.';
comment on table public.list_rows is 'The cells of each row of an uploaded list, as the file gave them.';

revoke all on table public.lists, public.list_rows from anon, authenticated;
grant all on table public.lists, public.list_rows to service_role;
grant select on table public.lists, public.list_rows to authenticated;

alter table public.lists enable row level security;
alter table public.list_rows enable row level security;

create policy lists_select_workspace on public.lists
  for select to authenticated using (user_id = (select public.current_workspace_id()));
create policy list_rows_select_workspace on public.list_rows
  for select to authenticated using (user_id = (select public.current_workspace_id()));
