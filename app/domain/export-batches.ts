/**
 * How an export's enrichment is cut into batch jobs (app/.server/exports/batches.ts) and how many a worker runs.
 */

/** Lead positions [from, to) of batch number `batchNo`. */
export function batchRange(batchNo: number, batchSize: number): { from: number; to: number } {
  return { from: batchNo * batchSize, to: (batchNo + 1) * batchSize }
}

/** The batch number of a range batchRange made (its singleton key's suffix). */
export function batchNumber(range: { from: number; to: number }): number {
  return Math.floor(range.from / Math.max(1, range.to - range.from))
}

/**
 * Batches one worker runs at once: as many as it takes to keep `jobs` × `leadsPerJob` leads in flight (what `jobs`
 * runs of `leadsPerJob` leads each kept before exports were cut in batches), `batchSize` leads at most per batch.
 */
export function batchSlots(jobs: number, leadsPerJob: number, batchSize: number): number {
  return Math.max(1, jobs) * Math.ceil(Math.max(1, leadsPerJob) / Math.max(1, batchSize))
}
