import { sql } from './db.ts'

/** Export rows written straight to the e2e database, so layout tests do not wait for the pipeline. */
export interface SeededExport {
  name: string
  status?: 'pending' | 'processing' | 'completed' | 'failed' | 'interrupted'
  leadCount?: number
  creditsUsed?: number
  progress?: number
  /** Minutes before now: decides the date order. */
  minutesAgo?: number
}

async function userId(email: string) {
  const [row] = await sql<{ id: string }>('select id from auth.users where email = $1', [email])
  if (!row) throw new Error(`no user ${email}`)
  return row.id
}

export async function seedExports(email: string, exports: SeededExport[]): Promise<string[]> {
  const id = await userId(email)
  const ids: string[] = []
  for (const item of exports) {
    const [row] = await sql<{ id: string }>(
      `insert into public.exports (user_id, name, status, lead_count, total_credits_used, progress_percentage, created_at, search_params, enrichment_options)
       values ($1, $2, $3, $4, $5, $6, now() - make_interval(mins => $7), '{"country":"France"}', '{"phone":true}') returning id`,
      [id, item.name, item.status ?? 'completed', item.leadCount ?? 0, item.creditsUsed ?? 0, item.progress ?? (item.status === 'processing' ? 40 : 100), item.minutesAgo ?? 0],
    )
    ids.push(row!.id)
  }
  return ids
}

const ALL_OPTIONS = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }

/** The main landline, then for some leads the owner's mobile and, for a few, more numbers than the cell lists. */
function seedPhoneSources(index: number, n: string) {
  const sources: Record<string, { type: string; page: string | null; rank: number }> = { [`+33 2 98 04 12 ${n}`]: { type: 'landline', page: null, rank: 0 } }
  if (index % 2) sources[`+33 6 71 23 45 ${n}`] = { type: 'mobile', page: 'https://www.boulangerie.fr/contact', rank: 1 }
  if (index % 4 === 1) {
    sources[`+33 800 12 34 ${n}`] = { type: 'toll_free', page: 'https://www.boulangerie.fr/contact', rank: 2 }
    sources[`+33 9 70 12 34 ${n}`] = { type: 'voip', page: 'https://www.boulangerie.fr/', rank: 3 }
  }
  return sources
}

/**
 * A completed export with every enrichment and `count` leads whose values are as long as real ones get: long names,
 * several emails, many technologies, all five networks, national-format phones (shown in international format).
 * With `distinctSirens`, each lead is a company of its own (else they share one SIREN, as a chain's shops do).
 */
export async function seedRichExport(email: string, { name = 'Boulangeries du Finistère', count = 25, distinctSirens = false } = {}): Promise<string> {
  const owner = await userId(email)
  const [exp] = await sql<{ id: string }>(
    `insert into public.exports (user_id, name, status, lead_count, total_credits_used, progress_percentage, completed_at, search_params, enrichment_options, country)
     values ($1, $2, 'completed', $3, $4, 100, now(), $5, $6, 'France') returning id`,
    [owner, name, count, count * 6, JSON.stringify({ sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère' }), JSON.stringify(ALL_OPTIONS)],
  )
  for (let index = 0; index < count; index++) {
    const n = String(index + 10).padStart(2, '0')
    const [lead] = await sql<{ id: string }>(
      `insert into public.leads (user_id, source, place_id, name, phone, website, city, country_code, business_types, email, technologies, social_media, admin_fr_info, rating, review_count, phone_sources)
       values ($1, 'demo', $2, $3, $4, $5, $6, 'FR', $7, $8, $9, $10, $11, $12, $13, $14) returning id`,
      [
        owner,
        `seed-${exp!.id}-${index}`,
        index % 3 === 0 ? `Boulangerie-Pâtisserie Artisanale Le Fournil de Saint-Pol-de-Léon n°${index + 1}` : `Boulangerie ${index + 1}`,
        `02 98 04 12 ${n}`,
        `https://www.boulangerie-${index + 1}.fr/nous-contacter/horaires-et-acces?utm_source=google-maps&utm_medium=organic`,
        index % 2 ? 'Saint-Pol-de-Léon' : 'Brest',
        ['bakery', 'pastry', 'cafe', 'confectionery'],
        [`contact@boulangerie-${index + 1}.fr`, `commandes.patisserie@boulangerie-${index + 1}.fr`],
        JSON.stringify({ cms: ['WordPress', 'WooCommerce'], analytics: ['Google Analytics', 'Matomo'], cdn: 'Cloudflare' }),
        JSON.stringify({
          facebook: 'https://facebook.com/b',
          instagram: 'https://instagram.com/b',
          linkedin: 'https://linkedin.com/company/b',
          twitter: 'https://x.com/b',
          tiktok: 'https://tiktok.com/@b',
        }),
        JSON.stringify({ results: [{ siren: distinctSirens ? String(123_456_000 + index) : '123456789' }] }),
        4.5,
        120 + index,
        JSON.stringify(seedPhoneSources(index, n)),
      ],
    )
    await sql(
      `insert into public.export_leads (export_id, lead_id, user_id, position, phone_status, website_status, email_status, technologies_status, social_media_status, admin_fr_info_status)
       values ($1, $2, $3, $4, 'success', 'success', 'success', 'success', 'success', 'success')`,
      [exp!.id, lead!.id, owner, index],
    )
  }
  return exp!.id
}
