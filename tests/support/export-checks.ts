/**
 * What the multi-worker tests and the scale bench check after their exports: every lead linked and done, each
 * success charged exactly once (one ledger row per idempotency key), the export's total equal to its successes.
 */
import type pg from 'pg'

const TASK_COLUMNS = ['phone', 'website', 'email', 'technologies', 'social_media', 'admin_fr_info'].map((task) => `${task}_status`)

function sum(expr: (column: string) => string): string {
  return TASK_COLUMNS.map((column) => `(${expr(column)})::int`).join(' + ')
}

export interface ExportAccount {
  status: string
  leads: number
  links: number
  pending: number
  successes: number
  creditsUsed: number
  ledgerRows: number
  ledgerCharged: number
  ledgerKeys: number
}

export async function exportAccount(admin: pg.Pool, exportId: string): Promise<ExportAccount> {
  const { rows } = await admin.query(
    `select e.status, e.lead_count as leads, e.total_credits_used as "creditsUsed",
            (select count(*)::int from public.export_leads el where el.export_id = e.id) as links,
            (select coalesce(sum(${sum((c) => `el.${c} = 'pending'`)}), 0)::int from public.export_leads el where el.export_id = e.id) as pending,
            (select coalesce(sum(${sum((c) => `el.${c} = 'success'`)}), 0)::int from public.export_leads el where el.export_id = e.id) as successes,
            (select count(*)::int from public.credit_ledger l where l.export_id = e.id and l.reason = 'enrichment') as "ledgerRows",
            (select coalesce(-sum(delta), 0)::int from public.credit_ledger l where l.export_id = e.id and l.reason = 'enrichment') as "ledgerCharged",
            (select count(distinct idempotency_key)::int from public.credit_ledger l where l.export_id = e.id and l.reason = 'enrichment') as "ledgerKeys"
       from public.exports e where e.id = $1`,
    [exportId],
  )
  if (!rows[0]) throw new Error(`export ${exportId} is gone`)
  return rows[0] as ExportAccount
}

/** Nothing lost, nothing charged twice: what a completed export's account must say (a list of what is wrong). */
export function accountProblems(account: ExportAccount, expectedLeads: number): string[] {
  const problems: string[] = []
  if (account.status !== 'completed') problems.push(`status ${account.status}`)
  if (account.leads !== expectedLeads || account.links !== expectedLeads) problems.push(`${account.links} leads linked (lead_count ${account.leads}), expected ${expectedLeads}`)
  if (account.pending !== 0) problems.push(`${account.pending} tasks still pending`)
  if (account.ledgerRows !== account.successes || account.ledgerKeys !== account.successes || account.ledgerCharged !== account.successes) {
    problems.push(`ledger ${account.ledgerRows} rows / ${account.ledgerKeys} keys / ${account.ledgerCharged} credits for ${account.successes} successes`)
  }
  if (account.creditsUsed !== account.successes) problems.push(`total_credits_used ${account.creditsUsed} for ${account.successes} successes`)
  return problems
}

/** sum(ledger deltas) = remaining credits: the user's balance is exactly its history. */
export async function balanceMatchesLedger(admin: pg.Pool, userId: string): Promise<boolean> {
  const { rows } = await admin.query(
    `select (select coalesce(sum(delta), 0)::int from public.credit_ledger where user_id = $1) as ledger,
            (select remaining_credits from public.user_credits where user_id = $1) as remaining`,
    [userId],
  )
  return rows[0].ledger === rows[0].remaining
}

/** The highest number of requests in any sliding window of `windowMs` (timestamps in ms, any order). */
export function peakInWindow(timestamps: readonly number[], windowMs = 1_000): number {
  const sorted = [...timestamps].sort((a, b) => a - b)
  let peak = 0
  let start = 0
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start++
    peak = Math.max(peak, end - start + 1)
  }
  return peak
}

/** Polls `probe` until it gives a value (every `intervalMs`), or fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 60_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
