/**
 * Registry answers kept for a day (registry_search_cache), shared by every process: an identical query — a preview
 * repeated, then the export of the same search — asks the registry once. Only answers are stored, never failures.
 */
import type pg from 'pg'

const DAY_SECONDS = 24 * 60 * 60

export interface RegistryCache<T> {
  get(key: string): Promise<T | null>
  put(key: string, value: T): Promise<void>
}

/** `seconds` ≤ 0: nothing is kept. */
export function createRegistryCache<T>(pool: () => Pick<pg.Pool, 'query'>, seconds: number): RegistryCache<T> {
  return {
    async get(key) {
      if (seconds <= 0) return null
      const { rows } = await pool().query<{ body: T }>(
        'select body from public.registry_search_cache where key = $1 and fetched_at > now() - make_interval(secs => $2)',
        [key, seconds],
      )
      return rows[0]?.body ?? null
    },
    async put(key, value) {
      if (seconds <= 0) return
      await pool().query(
        `insert into public.registry_search_cache (key, body, fetched_at) values ($1, $2::jsonb, now())
         on conflict (key) do update set body = excluded.body, fetched_at = excluded.fetched_at`,
        [key, JSON.stringify(value)],
      )
      // Expired answers are never read again: drop them as new ones come (indexed on fetched_at).
      await pool().query('delete from public.registry_search_cache where fetched_at < now() - make_interval(secs => $1)', [Math.max(seconds, DAY_SECONDS)])
    },
  }
}
