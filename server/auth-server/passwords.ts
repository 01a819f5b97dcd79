import os from 'node:os'
import bcrypt from 'bcryptjs'
import { Piscina } from 'piscina'
import { keyedQueue, QueueFull } from '#app/.server/keyed-queue.ts'
import { rateLimited } from './errors.ts'

const BCRYPT_COST = 10

const THREADS = Math.max(1, os.availableParallelism() - 1)

/**
 * Hashing runs in worker threads, leaving at least one core to the event loop, so a flood of sign-ins
 * never stalls page rendering. Its queue is bounded: a hash takes ~70 ms of a thread, so 32 waiting per
 * thread is a wait of about 2 s at worst; past that a request is refused at once (429) rather than left to
 * wait towards its timeout while the backlog grows.
 */
const pool = new Piscina({
  filename: new URL('./password-worker.mjs', import.meta.url).href,
  maxThreads: THREADS,
  maxQueue: 32 * THREADS,
  idleTimeout: 30_000,
})

/**
 * Fairness between clients: one client address has one hash running and two waiting at most, so a burst
 * from one address holds a single place in the threads' queue and another address's sign-in waits for
 * at most one of its hashes. Its surplus is refused straight away.
 */
const perClient = keyedQueue({ concurrency: 1, maxWaiting: 2 })

/** Seconds a client refused for hashing too much at once is told to wait: its own work ends in well under that. */
const BUSY_RETRY_AFTER_SECONDS = 2

async function run<T>(task: Record<string, unknown>, name: 'hash' | 'compare', client: string | undefined): Promise<T> {
  const work = () => pool.run(task, { name }) as Promise<T>
  try {
    return await (client === undefined ? work() : perClient.run(client, work))
  } catch (error) {
    if (error instanceof QueueFull || (error instanceof Error && error.message === 'Task queue is at limit')) throw rateLimited(BUSY_RETRY_AFTER_SECONDS)
    throw error
  }
}

/** `client` (its address) puts the hash in that client's fair share; without it only the global bound applies. */
export function hashPassword(password: string, client?: string): Promise<string> {
  return run({ password, cost: BCRYPT_COST }, 'hash', client)
}

// Compared against when the email is unknown, so a miss costs as much time as a wrong
// password and response times do not reveal which emails have accounts.
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_COST)

/** True when `password` matches `hash`; false (after the same work) when there is no hash. Throws a 429 AuthError when too busy. */
export async function verifyPassword(password: string, hash: string | null | undefined, client?: string): Promise<boolean> {
  const matches = await run<boolean>({ password, hash: hash || DUMMY_HASH }, 'compare', client)
  return Boolean(hash) && matches
}

/** Hashes and compares the worker threads have finished: the work is proven off the event loop by counting it there. */
export function passwordWorkDoneInThreads(): number {
  return pool.completed
}

/** The bound of the threads' queue (tests fill it). */
export function passwordQueueCapacity(): { threads: number; maxQueue: number } {
  return { threads: THREADS, maxQueue: pool.options.maxQueue }
}
