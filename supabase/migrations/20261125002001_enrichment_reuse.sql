-- Never pay twice for the same business (issue "Credits users can trust", item 2; README "Product decisions").
--
-- Two stores replace the never-used enrichment_cache:
--   enrichment_results   what was found for a business (source + place id) and type, with the date: shared by every
--                        user so a fresh result needs no new crawl; worker only (RLS on, no policy).
--   enrichment_purchases which user paid for which business and type, and when: a success for a business and type the
--                        user paid within the reuse window is free (and marked reused on the export lead).
-- export_leads.reused marks the free successes of an export ({task: date of the purchase reused}); leads.email_sources
-- keeps where each email was found ({email: {page, found_at}}).

drop table public.enrichment_cache;

create table public.enrichment_results (
  source text not null,
  place_id text not null,
  -- The pipeline task (export_leads.<task>_status).
  task text not null,
  -- The leads columns the task fills, by name ({"email": [...], "email_sources": {...}}).
  value jsonb not null,
  found_at timestamptz not null default now(),
  primary key (source, place_id, task)
);

create table public.enrichment_purchases (
  user_id uuid not null references public.users (id) on delete cascade,
  source text not null,
  place_id text not null,
  task text not null,
  paid_at timestamptz not null default now(),
  -- Deliberately not foreign keys (as in credit_ledger): deleting an export must not make its purchases free again.
  export_id uuid,
  lead_id uuid,
  -- One row per user, business and type: the unique key is what serialises two exports racing to charge it.
  primary key (user_id, source, place_id, task)
);

revoke all on table public.enrichment_results, public.enrichment_purchases from anon, authenticated;
grant all on table public.enrichment_results, public.enrichment_purchases to service_role;
grant select on table public.enrichment_purchases to authenticated;

alter table public.enrichment_results enable row level security;
alter table public.enrichment_purchases enable row level security;
-- enrichment_results: no policy, so only bypassing roles (worker) see it: one user's findings are never shown to another.
create policy enrichment_purchases_select_own on public.enrichment_purchases
  for select to authenticated using (user_id = (select auth.uid()));

alter table public.export_leads add column reused jsonb not null default '{}'::jsonb;
alter table public.leads add column email_sources jsonb not null default '{}'::jsonb;

-- The recorder gains the reuse window (days; 0 = never reuse). Same convention as 20261125000001: types come from
-- the outcomes, each names export_leads.<task>_status and fills leads.<task> (and leads.<task>_sources when it exists).
drop function public.record_lead_enrichment(uuid, uuid, uuid, jsonb, jsonb);

create function public.record_lead_enrichment(
  p_user_id uuid,
  p_export_id uuid,
  p_lead_id uuid,
  -- {"<task>": "success" | "not_found" | "failed"}: <task> names the export_leads column <task>_status
  p_outcomes jsonb,
  -- enriched values of the successes, by leads column: {"phone": text, "email": [text], "technologies": {...}, ...}
  p_values jsonb default '{}'::jsonb,
  p_reuse_days integer default 90
) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_type text;
  v_outcome text;
  v_rows integer;
  v_charged text[] := '{}';
  v_reused text[] := '{}';
  v_written text[];
  v_recorded integer := 0;
  v_out_of_credits boolean := false;
  v_remaining integer;
  v_unknown text;
  v_assignments text;
  v_values jsonb;
  v_source text;
  v_place_id text;
  v_bought boolean;
  v_reused_at timestamptz;
begin
  if p_user_id is null or p_export_id is null or p_lead_id is null then
    raise exception 'record_lead_enrichment: user, export and lead ids are required' using errcode = '22004';
  end if;
  if p_reuse_days is null or p_reuse_days < 0 then
    raise exception 'record_lead_enrichment: the reuse window must be >= 0 days' using errcode = '22023';
  end if;

  select k into v_unknown
    from jsonb_object_keys(coalesce(p_outcomes, '{}'::jsonb)) k
   where not exists (
     select 1 from pg_catalog.pg_attribute a
      where a.attrelid = 'public.export_leads'::regclass and a.attname = k || '_status'
        and a.attnum > 0 and not a.attisdropped)
   limit 1;
  if v_unknown is not null then
    raise exception 'record_lead_enrichment: unknown enrichment type %', v_unknown using errcode = '22023';
  end if;

  perform 1 from public.exports e
   where e.id = p_export_id and e.user_id = p_user_id
     for no key update;
  if not found then
    return jsonb_build_object('missing', true, 'charged', 0, 'recorded', 0, 'out_of_credits', false);
  end if;

  -- Balance lock before any purchase row lock: every recorder of this user takes them in the same order, so two
  -- exports of one user racing on the same business wait for each other instead of deadlocking.
  if exists (select 1 from jsonb_each_text(coalesce(p_outcomes, '{}'::jsonb)) o where o.value = 'success') then
    perform 1 from public.user_credits c where c.user_id = p_user_id for update;
  end if;

  select l.source, l.place_id into v_source, v_place_id
    from public.leads l where l.id = p_lead_id and l.user_id = p_user_id;

  for v_type in
    select left(a.attname, -length('_status'))
      from pg_catalog.pg_attribute a
     where a.attrelid = 'public.export_leads'::regclass and a.attnum > 0 and not a.attisdropped
       and p_outcomes ? left(a.attname, -length('_status')) and a.attname like '%\_status'
     order by a.attnum
  loop
    v_outcome := p_outcomes ->> v_type;
    if v_outcome not in ('success', 'not_found', 'failed') then
      raise exception 'record_lead_enrichment: bad outcome % for %', v_outcome, v_type using errcode = '22023';
    end if;

    if v_outcome = 'success' then
      -- After running out, the remaining successes stay pending (resume redoes them).
      continue when v_out_of_credits;
      execute format(
        'update public.export_leads set %1$I = ''success'' where export_id = $1 and lead_id = $2 and %1$I = ''pending''',
        v_type || '_status')
        using p_export_id, p_lead_id;
      get diagnostics v_rows = row_count;
      continue when v_rows = 0;

      v_reused_at := null;
      begin
        if v_place_id is not null then
          -- A purchase within the window stays (nothing returned: reuse it); none, or an expired one, is taken by
          -- this export. A racing recorder of the same user waits here on the unique key until we commit.
          v_bought := null;
          insert into public.enrichment_purchases as p (user_id, source, place_id, task, paid_at, export_id, lead_id)
          values (p_user_id, v_source, v_place_id, v_type, now(), p_export_id, p_lead_id)
          on conflict (user_id, source, place_id, task) do update
            set paid_at = excluded.paid_at, export_id = excluded.export_id, lead_id = excluded.lead_id
            -- 0 days = never reuse, even a purchase a racing transaction dated after this one's now().
            where p_reuse_days = 0 or p.paid_at <= now() - make_interval(days => p_reuse_days)
          returning true into v_bought;
          if v_bought is null then
            select p.paid_at into v_reused_at from public.enrichment_purchases p
             where p.user_id = p_user_id and p.source = v_source and p.place_id = v_place_id and p.task = v_type;
          end if;
        end if;

        if v_reused_at is not null then
          v_reused := v_reused || v_type;
          v_recorded := v_recorded + 1;
          update public.export_leads el set reused = el.reused || jsonb_build_object(v_type, v_reused_at)
           where el.export_id = p_export_id and el.lead_id = p_lead_id;
        elsif public.apply_credit_change(
             p_user_id, -1, 'enrichment',
             'enrich:' || p_export_id::text || ':' || p_lead_id::text || ':' || v_type,
             p_export_id, p_lead_id, v_type) then
          v_charged := v_charged || v_type;
          v_recorded := v_recorded + 1;
        else
          -- false = below zero, or the key was already used. Only the first is "out of credits".
          select c.remaining_credits into v_remaining from public.user_credits c where c.user_id = p_user_id;
          if coalesce(v_remaining, 0) < 1 then
            -- Undoes this block's purchase row: nothing was paid.
            raise exception 'out of credits' using errcode = 'LA402';
          end if;
          -- Already charged under this key (it cannot be charged twice): keep it recorded.
          v_recorded := v_recorded + 1;
        end if;
      exception when sqlstate 'LA402' then
        execute format(
          'update public.export_leads set %1$I = ''pending'' where export_id = $1 and lead_id = $2',
          v_type || '_status')
          using p_export_id, p_lead_id;
        v_out_of_credits := true;
      end;
    else
      execute format(
        'update public.export_leads set %1$I = $3 where export_id = $1 and lead_id = $2 and %1$I = ''pending''',
        v_type || '_status')
        using p_export_id, p_lead_id, v_outcome;
      get diagnostics v_rows = row_count;
      v_recorded := v_recorded + v_rows;
    end if;
  end loop;

  -- Reused types get the values too: the lead may have been deleted and found again since it was paid for.
  v_written := v_charged || v_reused;
  if cardinality(v_written) > 0 then
    -- The values whose JSON shape fits their leads column (text: a string, text[]: an array, jsonb: an object), for
    -- the columns leads.<task> and leads.<task>_sources; anything else keeps the stored value.
    select string_agg(format('%1$I = r.%1$I', a.attname), ', '), jsonb_object_agg(a.attname, p_values -> a.attname)
      into v_assignments, v_values
      from pg_catalog.pg_attribute a
     where a.attrelid = 'public.leads'::regclass and a.attnum > 0 and not a.attisdropped
       and (a.attname = any (v_written) or a.attname = any (select t || '_sources' from unnest(v_written) t))
       and jsonb_typeof(p_values -> a.attname) = case pg_catalog.format_type(a.atttypid, a.atttypmod)
                                                    when 'text' then 'string'
                                                    when 'text[]' then 'array'
                                                    when 'jsonb' then 'object' end;
    if v_assignments is not null then
      execute format(
        'update public.leads l set %s from jsonb_populate_record(null::public.leads, $1) r where l.id = $2 and l.user_id = $3',
        v_assignments)
        using v_values, p_lead_id, p_user_id;
    end if;
  end if;

  if cardinality(v_charged) > 0 then
    update public.exports e
       set total_credits_used = e.total_credits_used + cardinality(v_charged)
     where e.id = p_export_id;
  end if;

  return jsonb_build_object(
    'missing', false,
    'charged', cardinality(v_charged),
    'charged_types', to_jsonb(v_charged),
    'reused', cardinality(v_reused),
    'reused_types', to_jsonb(v_reused),
    'recorded', v_recorded,
    'out_of_credits', v_out_of_credits);
end
$$;

revoke all on function public.record_lead_enrichment(uuid, uuid, uuid, jsonb, jsonb, integer) from public, anon, authenticated;
grant execute on function public.record_lead_enrichment(uuid, uuid, uuid, jsonb, jsonb, integer) to service_role;
