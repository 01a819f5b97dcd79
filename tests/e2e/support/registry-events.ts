import { expect } from '@playwright/test'
import { sql } from './db.ts'

/**
 * The e2e server imports the demo registry history (18 months) at start-up, in the background: a test that reads the
 * store waits until it is in.
 */
export async function demoHistoryImported() {
  await expect(async () => {
    const [row] = await sql<{ days: number }>(`select count(*)::int as days from public.registry_imports where source = 'bodacc' and status = 'done'`)
    expect(row!.days).toBeGreaterThanOrEqual(540)
  }).toPass({ timeout: 240_000, intervals: [2000] })
}
