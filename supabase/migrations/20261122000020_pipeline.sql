-- Export pipeline (ARCHITECTURE §5): recording the outcome of one lead's enrichment tasks.
-- Additive only. pg-boss installs its own schema (pgboss) at worker start.
--
-- public.record_lead_enrichment() is the single place a task leaves `pending`. In ONE transaction it:
--   * locks the export row first (the same lock order as a delete: exports -> export_leads -> leads),
--     and reports `missing` when the export is gone (deleted mid-run: the worker stops);
--   * for each success: flips <type>_status pending -> success (0 rows: another worker already
--     recorded it; nothing is charged) and charges 1 credit through public.apply_credit_change with
--     the key 'enrich:<export>:<lead>:<type>'. Out of credits: the status goes back to pending, no
--     other success of this call is recorded, and `out_of_credits` is reported;
--   * records not_found / failed (free) the same conditional way;
--   * writes the enriched values of the charged types on the lead and adds the charges to
--     exports.total_credits_used.
-- A success is therefore recorded and charged together or not at all, whatever the number of workers.

create function public.record_lead_enrichment(
  p_user_id uuid,
  p_export_id uuid,
  p_lead_id uuid,
  -- {"<type>": "success" | "not_found" | "failed"}, <type> in phone, website, email, technologies,
  -- social_media, admin_fr_info (the export_leads column stems)
  p_outcomes jsonb,
  -- enriched values for the successes: {"phone": text, "website": text, "email": [text],
  -- "technologies": {...}, "social_media": {...}, "admin_fr_info": {...}}
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
  v_already text[] := '{}';
  v_recorded integer := 0;
  v_out_of_credits boolean := false;
  v_remaining integer;
begin
  if p_user_id is null or p_export_id is null or p_lead_id is null then
    raise exception 'record_lead_enrichment: user, export and lead ids are required' using errcode = '22004';
  end if;

  perform 1 from public.exports e
   where e.id = p_export_id and e.user_id = p_user_id
     for no key update;
  if not found then
    return jsonb_build_object('missing', true, 'charged', 0, 'recorded', 0, 'out_of_credits', false);
  end if;

  foreach v_type in array array['phone', 'website', 'email', 'technologies', 'social_media', 'admin_fr_info'] loop
    v_outcome := p_outcomes ->> v_type;
    continue when v_outcome is null;
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
          v_already := v_already || v_type;
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
    update public.leads l
       set phone = case when 'phone' = any (v_charged) then coalesce(p_values ->> 'phone', l.phone) else l.phone end,
           website = case when 'website' = any (v_charged) then coalesce(p_values ->> 'website', l.website) else l.website end,
           email = case when 'email' = any (v_charged) and jsonb_typeof(p_values -> 'email') = 'array'
                        then array(select jsonb_array_elements_text(p_values -> 'email')) else l.email end,
           technologies = case when 'technologies' = any (v_charged) and jsonb_typeof(p_values -> 'technologies') = 'object'
                               then p_values -> 'technologies' else l.technologies end,
           social_media = case when 'social_media' = any (v_charged) and jsonb_typeof(p_values -> 'social_media') = 'object'
                               then p_values -> 'social_media' else l.social_media end,
           admin_fr_info = case when 'admin_fr_info' = any (v_charged) and jsonb_typeof(p_values -> 'admin_fr_info') = 'object'
                                then p_values -> 'admin_fr_info' else l.admin_fr_info end
     where l.id = p_lead_id and l.user_id = p_user_id;

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

comment on function public.record_lead_enrichment(uuid, uuid, uuid, jsonb, jsonb) is
  'Worker only. Records one lead''s enrichment outcomes for one export; each success is charged 1 credit in the same transaction (idempotency key enrich:<export>:<lead>:<type>). Returns {missing, charged, charged_types, recorded, out_of_credits}.';

revoke all on function public.record_lead_enrichment(uuid, uuid, uuid, jsonb, jsonb) from public, anon, authenticated;
grant execute on function public.record_lead_enrichment(uuid, uuid, uuid, jsonb, jsonb) to service_role;

-- The worker's scan for a lead's pending tasks walks export_leads by (export_id, position, lead_id):
-- the existing (export_id, position) index serves it. Nothing else to add.
