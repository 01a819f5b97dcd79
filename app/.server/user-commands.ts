/**
 * The transaction of a user's command (create, resume, add enrichment, delete an export; run a saved search), with a
 * per-user share of the pool: at most COMMAND_CONCURRENCY of one user's commands hold a pooled connection at once in
 * this process, and at most MAX_WAITING more wait in memory (holding nothing). Each command reads all it needs on its
 * own transaction, so a burst of one user's commands — 20 parallel resumes of one export queue on its row lock, each
 * holding a connection — takes at most two of the pool's ten connections, whatever its size, and every other user's
 * pages find the rest free (issue 28). Past the queue, a command is refused at once with a 503 "try again".
 */
import type { Transaction } from 'kysely'
import { data } from 'react-router'
import type { SessionUser } from './auth.ts'
import { withUser, type Database } from './db.ts'
import { keyedQueue, QueueFull } from './keyed-queue.ts'

/** Two: a user creating an export while resuming another is not made to wait. */
const COMMAND_CONCURRENCY = 2
const MAX_WAITING = 30

const commands = keyedQueue({ concurrency: COMMAND_CONCURRENCY, maxWaiting: MAX_WAITING })

export async function withUserCommand<T>(user: SessionUser, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  try {
    return await commands.run(user.id, () => withUser(user.claims, fn))
  } catch (error) {
    // The answer withUser gives when the database cannot take more (a 503 page, or a problem in the API).
    if (error instanceof QueueFull) throw data({ error: 'busy' }, { status: 503, headers: { 'Retry-After': '5' } })
    throw error
  }
}
