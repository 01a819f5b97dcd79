/**
 * Request budgets for every process together: N requests per fixed window (a minute, a UTC day), counted in Postgres
 * (limit_windows_take, supabase/migrations/20261128140000_global_limits.sql) the way the upstreams count their quotas.
 * One request is counted in all the windows it belongs to at once, or in none.
 */
import type pg from 'pg'

export interface BudgetWindow {
  key: string
  limit: number
  windowMs: number
}

export const DAY_MS = 86_400_000

export interface WindowBudget {
  /** Counts one request: 0 when granted, else the ms until a refusing window starts over (nothing counted). */
  take(windows: BudgetWindow[]): Promise<number>
}

export function createWindowBudget(pool: Pick<pg.Pool, 'query'>): WindowBudget {
  return {
    async take(windows) {
      if (windows.length === 0) return 0
      const { rows } = await pool.query<{ wait: number }>('select public.limit_windows_take($1, $2, $3) as wait', [
        windows.map((w) => w.key),
        windows.map((w) => Math.max(0, Math.floor(w.limit))),
        windows.map((w) => w.windowMs),
      ])
      return Math.max(0, Number(rows[0]?.wait ?? 0))
    },
  }
}
