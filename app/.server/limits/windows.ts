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

/** Whose turn it is among the accounts waiting for room in the windows (fair.ts). */
interface FairTurn {
  key: string
  account: string
}

export interface WindowBudget {
  /**
   * Counts one request: 0 when granted, else the ms until a refusing window starts over (nothing counted). With
   * `fair`, room goes round-robin between the accounts waiting for it: another account's turn is a refusal of 50 ms.
   */
  take(windows: BudgetWindow[], fair?: FairTurn): Promise<number>
}

export function createWindowBudget(pool: Pick<pg.Pool, 'query'>): WindowBudget {
  return {
    async take(windows, fair) {
      if (windows.length === 0) return 0
      const { rows } = await pool.query<{ wait: number }>('select public.limit_windows_take($1, $2, $3, $4, $5) as wait', [
        windows.map((w) => w.key),
        windows.map((w) => Math.max(0, Math.floor(w.limit))),
        windows.map((w) => w.windowMs),
        fair?.key ?? null,
        fair?.account ?? null,
      ])
      return Math.max(0, Number(rows[0]?.wait ?? 0))
    },
  }
}
