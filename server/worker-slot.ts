/**
 * The in-process worker slot. The export pipeline (pg-boss consumers) plugs in here; until
 * it exists the slot only reports that it is idle, so `npm start` has the same shape it
 * will keep.
 */
export async function startWorker({ log }: { log: (message: string) => void }) {
  log('Worker slot ready (no job types registered yet)')
  return { stop: async () => {} }
}
