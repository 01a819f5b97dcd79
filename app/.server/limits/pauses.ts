/**
 * Back-offs every process obeys: after a 429 / Retry-After or an overloaded answer, the process that saw it writes
 * until when nobody asks that upstream, and the failures in a row that set the wait (limit_pauses, supabase/
 * migrations/20261128140000_global_limits.sql). Times are on the writer's clock, read on the reader's.
 */
import type pg from 'pg'

interface Pause {
  untilMs: number
  failures: number
}

export interface PauseBoard {
  read(key: string): Promise<Pause>
  /** Never shortens a pause another process set. */
  set(key: string, pause: Pause): Promise<void>
  /** A success: the failures in a row start again from zero. */
  settle(key: string): Promise<void>
}

export function createPauseBoard(pool: Pick<pg.Pool, 'query'>): PauseBoard {
  return {
    async read(key) {
      const { rows } = await pool.query<{ until_ms: number; failures: number }>('select until_ms, failures from public.limit_pause_read($1)', [key])
      return { untilMs: Number(rows[0]?.until_ms ?? 0), failures: Number(rows[0]?.failures ?? 0) }
    },
    async set(key, pause) {
      await pool.query('select public.limit_pause_set($1, $2, $3)', [key, pause.untilMs, pause.failures])
    },
    async settle(key) {
      await pool.query('select public.limit_pause_settle($1)', [key])
    },
  }
}
