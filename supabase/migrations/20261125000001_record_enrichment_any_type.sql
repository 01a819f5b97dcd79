-- record_lead_enrichment() without a hard-coded list of enrichment types.
--
-- The enrichment types are defined once, in app/domain/enrichment-types.ts. The database side of a type is two
-- columns following one convention: leads.<task> holds the value and export_leads.<task>_status its status. The
-- recorder now takes the types from the outcomes it is given and checks each against that convention, so adding
-- a type means a migration adding its two columns, and no change here. Behaviour is otherwise that of
-- 20261122000020_pipeline.sql: same locking, charging, idempotency keys and result.
--
-- Types are processed in the order of their status columns in export_leads (phone, website, email, technologies,
-- social_media, admin_fr_info, then any later addition), as before, so which successes are kept when credits run
-- out mid-lead stays deterministic.

create or replace function public.record_lead_enrichment(
  p_user_id uuid,
  p_export_id uuid,
  p_lead_id uuid,
  -- {"<task>": "success" | "not_found" | "failed"}: <task> names the export_leads column <task>_status
  p_outcomes jsonb,
  -- enriched values of the successes, by leads column: {"phone": text, "email": [text], "technologies": {...}, ...}
  p_values jsonb default '{}'::jsonb
) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_type text;
  v_outcome text;
  v_rows integer;
  v_charged text[] := '{}';
  v_recorded integer := 0;
  v_out_of_credits boolean := false;
  v_remaining integer;
  v_unknown text;
  v_assignments text;
  v_values jsonb;
begin
  if p_user_id is null or p_export_id is null or p_lead_id is null then
    raise exception 'record_lead_enrichment: user, export and lead ids are required' using errcode = '22004';
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
      if public.apply_credit_change(
           p_user_id, -1, 'enrichment',
           'enrich:' || p_export_id::text || ':' || p_lead_id::text || ':' || v_type,
           p_export_id, p_lead_id, v_type) then
        v_charged := v_charged || v_type;
        v_recorded := v_recorded + 1;
      else
        -- false = below zero, or the key was already used. Only the first is "out of credits".
        select c.remaining_credits into v_remaining from public.user_credits c where c.user_id = p_user_id;
        if coalesce(v_remaining, 0) < 1 then
          execute format(
            'update public.export_leads set %1$I = ''pending'' where export_id = $1 and lead_id = $2',
            v_type || '_status')
            using p_export_id, p_lead_id;
          v_out_of_credits := true;
        else
          -- Already charged under this key (it cannot be charged twice): keep it recorded.
          v_recorded := v_recorded + 1;
        end if;
      end if;
    else
      execute format(
        'update public.export_leads set %1$I = $3 where export_id = $1 and lead_id = $2 and %1$I = ''pending''',
        v_type || '_status')
        using p_export_id, p_lead_id, v_outcome;
      get diagnostics v_rows = row_count;
      v_recorded := v_recorded + v_rows;
    end if;
  end loop;

  if cardinality(v_charged) > 0 then
    -- The values of the charged types whose JSON shape fits their leads column (text: a string, text[]: an
    -- array, jsonb: an object); anything else keeps the stored value, as before.
    select string_agg(format('%1$I = r.%1$I', a.attname), ', '), jsonb_object_agg(a.attname, p_values -> a.attname)
      into v_assignments, v_values
      from pg_catalog.pg_attribute a
     where a.attrelid = 'public.leads'::regclass and a.attnum > 0 and not a.attisdropped
       and a.attname = any (v_charged)
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

    update public.exports e
       set total_credits_used = e.total_credits_used + cardinality(v_charged)
     where e.id = p_export_id;
  end if;

  return jsonb_build_object(
    'missing', false,
    'charged', cardinality(v_charged),
    'charged_types', to_jsonb(v_charged),
    'recorded', v_recorded,
    'out_of_credits', v_out_of_credits);
end
$$;

revoke all on function public.record_lead_enrichment(uuid, uuid, uuid, jsonb, jsonb) from public, anon, authenticated;
grant execute on function public.record_lead_enrichment(uuid, uuid, uuid, jsonb, jsonb) to service_role;
