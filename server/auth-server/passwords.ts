import os from 'node:os'
import bcrypt from 'bcryptjs'
import { Piscina } from 'piscina'

const BCRYPT_COST = 10

// Hashing runs in worker threads, leaving at least one core to the event loop: a flood of
// sign-ins queues here instead of stalling every page (rate limits keep the queue short).
const pool = new Piscina({
  filename: new URL('./password-worker.mjs', import.meta.url).href,
  maxThreads: Math.max(1, os.availableParallelism() - 1),
  idleTimeout: 30_000,
})

export function hashPassword(password: string): Promise<string> {
  return pool.run({ password, cost: BCRYPT_COST }, { name: 'hash' })
}

// Compared against when the email is unknown, so a miss costs as much time as a wrong
// password and response times do not reveal which emails have accounts.
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_COST)

/** True when `password` matches `hash`; false (after the same work) when there is no hash. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  const matches: boolean = await pool.run({ password, hash: hash || DUMMY_HASH }, { name: 'compare' })
  return Boolean(hash) && matches
}

/** Hashes and compares the worker threads have finished: the work is proven off the event loop by counting it there. */
export function passwordWorkDoneInThreads(): number {
  return pool.completed
}
