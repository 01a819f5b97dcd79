// Seeds a bench account directly (as the superuser, bypassing RLS): `exports` exports, the newest holding `leads`
// enriched leads, as the pages and the API benchmarks read them.
import type pg from 'pg'

/** The account's id and the id of its export holding the leads. */
export async function seedExports(db: pg.Pool, email: string, exports: number, leads: number): Promise<{ userId: string; exportId: string }> {
  const { rows } = await db.query<{ id: string }>('select id from auth.users where email = $1', [email])
  const userId = rows[0]!.id
  // Oldest first, so the export holding the leads is the newest (first in the list).
  await db.query(
    `insert into public.exports (user_id, name, search_params, enrichment_options, status, lead_count, total_credits_used, created_at, completed_at, progress_percentage, country, city)
     select $1, 'Boulangeries Paris ' || g, '{"sector":"bakery","country":"France","city":"Paris"}',
            '{"phone":true,"website":true,"email":true,"technologies":true,"social":{"facebook":true,"linkedin":true},"admin_fr_info":true}',
            case when g % 10 = 0 then 'interrupted' else 'completed' end, 200 + g, 400 + g,
            now() - make_interval(mins => $2::int - g), now() - make_interval(mins => $2::int - g) + interval '3 minutes', 100, 'France', 'Paris'
       from generate_series(1, $2::int) g`,
    [userId, exports],
  )
  const exportId = (await db.query<{ id: string }>('select id from public.exports where user_id = $1 order by created_at desc limit 1', [userId])).rows[0]!.id
  await db.query(
    `with inserted as (
       insert into public.leads (user_id, source, place_id, name, full_address, city, postal_code, country_code, phone, website, email,
                                 technologies, social_media, rating, review_count, business_types, description)
       select $1, 'demo', 'bench-' || g, 'Boulangerie ' || g, g || ' rue de la République, 75011 Paris', 'Paris', '75011', 'FR',
              '+33 1 23 45 ' || lpad((g % 100)::text, 2, '0') || ' ' || lpad((g % 97)::text, 2, '0'), 'https://boulangerie-' || g || '.example',
              array['contact@boulangerie-' || g || '.example'],
              '{"CMS":"WordPress","JavaScript libraries":["jQuery","React"]}', '{"facebook":"https://facebook.com/b","linkedin":"https://linkedin.com/company/b"}',
              4.5, g % 500, array['bakery','cafe'], repeat('Pain et viennoiseries. ', 8)
         from generate_series(1, $3::int) g
       returning id, place_id)
     insert into public.export_leads (export_id, lead_id, user_id, position, phone_status, website_status, email_status, technologies_status, social_media_status)
     select $2, id, $1, substr(place_id, 7)::int, 'success', 'success', 'success', 'not_found', 'success' from inserted`,
    [userId, exportId, leads],
  )
  await db.query('update public.exports set lead_count = $2 where id = $1', [exportId, leads])
  await db.query('analyze public.exports; analyze public.leads; analyze public.export_leads')
  return { userId, exportId }
}
