/**
 * Fair shares between accounts, the one mechanism behind every shared upstream budget (the registry's requests per
 * second, the Overpass slots and day, the Google Places minute and day):
 *
 * - Round-robin across processes: a unit that frees (a slot, a place in the window) goes to the account served least
 *   recently among those waiting for it, FIFO within an account (limit_fair, supabase/migrations/
 *   20261202120400_fair_shares.sql, read under the budget's own lock by the take functions). A victim's request waits
 *   about one unit per flooding account, not behind their whole queue; an account alone may use the whole budget.
 * - In this process: FairSlots below, a counting semaphore whose waiters are served the same way.
 * - A day's quota cannot be shared by waiting (a unit spent is gone until midnight, and the day's later users are
 *   unknown): one account may spend at most `accountDailyCap` of it (LIMIT_ACCOUNT_DAILY_PERCENT, 10 % by default),
 *   counted as one more window with the day's own, so the rest stays for the others.
 *
 * The account is the user on whose behalf the request is made (account.ts).
 */
import { currentAccount } from './account.ts'
import type { BudgetWindow } from './windows.ts'

/** The most one account may spend of a day's `limit` (at least one request). */
function accountDailyCap(limit: number, percent: number): number {
  return Math.max(1, Math.floor((limit * Math.min(100, Math.max(0, percent))) / 100))
}

/** The window that counts what the current account spent of a daily window, capped at its share. */
export function accountDayWindow(day: BudgetWindow, percent: number, account = currentAccount()): BudgetWindow {
  return { key: `${day.key}:account:${account}`, limit: accountDailyCap(day.limit, percent), windowMs: day.windowMs }
}

interface Waiter {
  grant: () => void
}

/** A counting semaphore whose waiters are served round-robin between accounts, FIFO within one. */
export class FairSlots {
  private active = 0
  /** Accounts in the order they are served; each with its waiters. */
  private readonly queues = new Map<string, Waiter[]>()

  constructor(private readonly max: number) {}

  async acquire(signal: AbortSignal, account = currentAccount()): Promise<void> {
    signal.throwIfAborted()
    if (this.active < this.max) {
      this.active++
      return
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort)
          this.active++
          resolve()
        },
      }
      const onAbort = () => {
        const queue = this.queues.get(account)
        const index = queue?.indexOf(waiter) ?? -1
        if (queue && index >= 0) queue.splice(index, 1)
        if (queue?.length === 0) this.queues.delete(account)
        reject(signal.reason)
      }
      const queue = this.queues.get(account)
      if (queue) queue.push(waiter)
      else this.queues.set(account, [waiter])
      signal.addEventListener('abort', onAbort, { once: true })
    })
  }

  release(): void {
    this.active--
    // The first account in line is served, then goes to the back (a Map keeps insertion order).
    const next = this.queues.entries().next()
    if (next.done) return
    const [account, queue] = next.value
    this.queues.delete(account)
    const waiter = queue.shift()!
    if (queue.length) this.queues.set(account, queue)
    waiter.grant()
  }
}
