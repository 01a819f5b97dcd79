/**
 * The enrichment phase of an export run, or of one batch of it (a position range, batches.ts): every lead with a
 * pending task is enriched (`concurrency` at once) and its outcomes recorded (record-lead.ts), charging each success.
 * Out of credits → `interrupted` + can_resume; export deleted → stop quietly (finish-run.ts). Several walks over the
 * pending leads if some remain (e.g. a racing worker's lead that failed to record). A batch whose range is done
 * while other batches still have leads ends `partial`: the batch that finds nothing pending finishes the export.
 * `drain` (a worker shutting down): no new lead is taken, the ones in flight are recorded, the phase ends `released`.
 */
import type { Kysely } from 'kysely'
import pMap from 'p-map'
import type { Database } from '#app/.server/db.ts'
import { unverifiedEmailMark } from './email-dns-flag.ts'
import { closedInRegistry, excludesClosed, leaveOutLead } from './closed-leads.ts'
import { riskAfterRegistry, riskFiltersOf } from './risk-gate.ts'
import { abortError, exportExists, type ExportRow, type ExportSearch, type ProcessOptions, type ProcessResult } from './export-run.ts'
import { finishEnrichment, type StopReason } from './finish-run.ts'
import { hasPendingLeads, pendingLeads, pendingTasks, type PendingLead, type PositionRange } from './pending-leads.ts'
import { refreshProgress } from './progress.ts'
import { recordLeadEnrichment } from './record-lead.ts'
import { enrichWithStore } from './results-store.ts'

export type { PositionRange } from './pending-leads.ts'

const MAX_WALKS = 3

/** The run's own stop: out of credits, export gone or not running any more, a fatal error, or the caller's abort. */
function runStop(callerSignal: AbortSignal | undefined) {
  const controller = new AbortController()
  let reason: StopReason | null = null
  let fatal: unknown = null
  const halt = (why: StopReason, error?: unknown) => {
    if (!reason) {
      reason = why
      if (why === 'error') fatal = error
    }
    if (!controller.signal.aborted) controller.abort(why === 'abort' ? error : new DOMException(`export run stopped: ${why}`, 'AbortError'))
  }
  const onAbort = () => halt('abort', abortError(callerSignal as AbortSignal))
  callerSignal?.addEventListener('abort', onAbort, { once: true })
  return {
    signal: controller.signal,
    halt,
    stopped: () => reason !== null,
    reason: () => reason,
    fatal: () => fatal,
    detach: () => callerSignal?.removeEventListener('abort', onAbort),
  }
}

/** Progress writes at most every `intervalMs`, one at a time; a write that finds the run over stops it. */
function throttledProgress(db: Kysely<Database>, exportId: string, intervalMs: number, halt: (reason: StopReason) => void) {
  let last = 0
  let flushing: Promise<void> | null = null
  return {
    async flush() {
      if (flushing || Date.now() - last < intervalMs) return
      last = Date.now()
      flushing = (async () => {
        const progress = await refreshProgress(db, exportId, { phase: 'enrichment' })
        if (!progress) halt((await exportExists(db, exportId)) ? 'not_running' : 'gone')
      })().finally(() => {
        flushing = null
      })
      await flushing
    },
    settled: async () => {
      if (flushing) await flushing.catch(() => {})
    },
  }
}

/** A walk whose failure stops the run instead of rejecting: the leads in flight still finish. */
async function* stopOnFailure<T>(source: AsyncIterable<T>, halt: (reason: 'error', error: unknown) => void): AsyncGenerator<T, void, undefined> {
  try {
    yield* source
  } catch (error) {
    halt('error', error)
  }
}

export async function runEnrichmentPhase(
  db: Kysely<Database>,
  row: ExportRow,
  search: ExportSearch,
  options: ProcessOptions & { concurrency: number; reuseDays: number; recheckDays: number; range?: PositionRange },
): Promise<ProcessResult> {
  const exportId = row.id
  const log = options.log ?? (() => {})
  await db.updateTable('exports').set({ enrichment_status: 'processing' }).where('id', '=', exportId).where('status', '=', 'processing').execute()

  const stop = runStop(options.signal)
  const progress = throttledProgress(db, exportId, options.progressIntervalMs ?? 250, stop.halt)
  const totals = { enrichedLeads: 0, charged: 0 }
  const { reuseDays, recheckDays } = options
  const context = { enrichers: options.enrichers, signal: stop.signal, exportCountryCode: search.countryCode, nafCodes: search.category?.naf, reuseDays, recheckDays }
  const excludeClosed = excludesClosed(row.search_params)
  const riskFilters = riskFiltersOf(row.search_params)
  const markUnverified = unverifiedEmailMark(db, exportId)
  const { range, drain } = options
  const halted = () => stop.stopped() || drain?.aborted === true

  const enrichOne = async (lead: PendingLead) => {
    const pending = pendingTasks(lead)
    if (pending.size === 0) return
    const result = await enrichWithStore(db, lead, pending, context)
    if (excludeClosed && closedInRegistry(result) && (await leaveOutLead(db, exportId, lead.lead_id))) return progress.flush()
    const risk = riskFilters ? await riskAfterRegistry(db, riskFilters, result) : null
    if (risk && (await leaveOutLead(db, exportId, lead.lead_id, risk))) return progress.flush()
    const recorded = await recordLeadEnrichment(db, { userId: row.user_id, exportId, leadId: lead.lead_id, reuseDays }, result, log)
    if (recorded.missing) return stop.halt('gone')
    totals.enrichedLeads++
    totals.charged += recorded.charged
    if (result.outcomes.email === 'success') await markUnverified(result)
    await options.onLeadRecorded?.({ leadId: lead.lead_id, charged: recorded.charged, outOfCredits: recorded.out_of_credits })
    if (recorded.out_of_credits) return stop.halt('credits')
    await progress.flush()
  }

  try {
    for (let walk = 0; walk < MAX_WALKS && !halted(); walk++) {
      let found = 0
      const leads = pendingLeads(db, exportId, { stopped: halted, onPage: (rows) => (found += rows), range })
      await pMap(
        stopOnFailure(leads, stop.halt),
        async (lead) => {
          if (halted()) return
          try {
            await enrichOne(lead)
          } catch (error) {
            // After a stop, the in-flight leads reject with the abort: expected, nothing to report.
            if (!stop.signal.aborted) stop.halt('error', error)
          }
        },
        { concurrency: options.concurrency },
      )
      if (found === 0) break
    }
  } finally {
    stop.detach()
    await progress.settled()
  }

  const reason = stop.reason()
  if (options.signal?.aborted || reason === 'abort') {
    await refreshProgress(db, exportId, { phase: 'enrichment' }).catch(() => {})
    throw abortError(options.signal as AbortSignal)
  }
  if (reason === 'error') {
    await refreshProgress(db, exportId, { phase: 'enrichment' }).catch(() => {})
    throw stop.fatal()
  }
  if (reason === null && (drain?.aborted || (range && !(await hasPendingLeads(db, exportId, range)) && (await hasPendingLeads(db, exportId))))) {
    await refreshProgress(db, exportId, { phase: 'enrichment' })
    return { outcome: drain?.aborted ? 'released' : 'partial', leads: 0, ...totals }
  }
  return finishEnrichment(db, exportId, { reason, ...totals, log })
}
