/**
 * The one way a CRM adapter talks to its API: JSON over HTTPS to the provider's fixed base URL (never a URL a user
 * typed: no SSRF surface), each request counted in the connection's documented budgets for every process of the
 * deployment together (limits/windows.ts, served round-robin between the workspaces waiting for the same CRM
 * account), a 429 pausing every process for its Retry-After (limits/pauses.ts), 5xx and network errors retried with
 * backoff. Other answers are returned to the adapter, which knows what a 400 or a 409 means for its API.
 */
import { sleep } from '#app/.server/enrichment/limits.ts'
import { deploymentLimits, type GlobalLimits } from '#app/.server/limits/global.ts'
import type { BudgetWindow } from '#app/.server/limits/windows.ts'
import { parseRetryAfter } from '#app/utils/headers.ts'

export interface CrmResponse {
  status: number
  /** The parsed JSON body; null when empty or not JSON. */
  body: unknown
  headers: Headers
}

/** The CRM could not be reached or kept refusing (429 past the retries, 5xx): the push is retried later, nothing is lost. */
export class CrmUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message)
    this.name = 'CrmUnavailableError'
  }
}

/** The CRM refused the credentials (401/403 on a call that needs them): the connection must be fixed by an admin. */
export class CrmAuthError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CrmAuthError'
  }
}

export interface CrmHttpOptions {
  baseUrl: string
  /** Sent with every request (the credentials). */
  headers: () => Promise<Record<string, string>> | Record<string, string>
  /** The budgets and the pause board are named after it: one CRM account (a token, a portal). */
  limitKey: string
  /** The documented limits of that account (e.g. HubSpot 100 requests per 10 s). */
  budgets: readonly Omit<BudgetWindow, 'key'>[]
  /** Whose turn it is when several wait for the same account (the workspace). */
  account: string
  /** Default: the deployment's, null without a database (then only this process's retries). */
  limits?: GlobalLimits | null
  fetch?: typeof fetch
  timeoutMs?: number
  maxRetries?: number
  retryBaseDelayMs?: number
  /** A Retry-After longer than this is not waited for here: the push job is retried after it (default 60 s). */
  maxWaitMs?: number
  signal?: AbortSignal
}

export interface CrmRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  query?: Record<string, string | number | boolean | undefined>
  body?: unknown
}

export interface CrmHttp {
  request(request: CrmRequest): Promise<CrmResponse>
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text()
  if (!text) return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

const DAY_MS = 86_400_000

/**
 * The fixed window our budget counts in for a CRM limit of `limit` per rolling `windowMs` (the CRMs count in rolling
 * windows, ours are fixed: limit_windows_take). A fifth of the limit per quarter of the window: any rolling window
 * overlaps at most five quarters, so it never sees more than the limit, at 80 % of the documented rate. A day's quota
 * is counted per UTC day, as the CRMs reset it.
 */
export function fixedWindowWithin(budget: Omit<BudgetWindow, 'key'>): Omit<BudgetWindow, 'key'> {
  if (budget.windowMs >= DAY_MS) return budget
  if (budget.limit < 5) return { limit: Math.max(1, Math.floor(budget.limit / 2)), windowMs: budget.windowMs }
  return { limit: Math.floor(budget.limit / 5), windowMs: Math.ceil(budget.windowMs / 4) }
}

export function createCrmHttp(options: CrmHttpOptions): CrmHttp {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const fetchImpl = options.fetch ?? globalThis.fetch
  const timeoutMs = options.timeoutMs ?? 15_000
  const maxRetries = options.maxRetries ?? 4
  const baseDelay = options.retryBaseDelayMs ?? 500
  const maxWait = options.maxWaitMs ?? 60_000
  const limits = () => (options.limits === undefined ? deploymentLimits() : options.limits)
  const pauseKey = `crm:${options.limitKey}`
  const windows = options.budgets.map((budget, index) => ({ ...fixedWindowWithin(budget), key: `crm:${options.limitKey}:${index}` }))

  /** Waits until the account is not paused and the budgets have room for one more request. */
  async function takeTurn(): Promise<void> {
    const shared = limits()
    if (!shared) return
    for (;;) {
      const pause = await shared.pauses.read(pauseKey)
      const pausedMs = pause.untilMs - Date.now()
      if (pausedMs > maxWait) throw new CrmUnavailableError('rate_limited', pausedMs)
      if (pausedMs > 0) {
        await sleep(pausedMs, options.signal)
        continue
      }
      const wait = await shared.budgets.take(windows, { key: pauseKey, account: options.account })
      if (wait === 0) return
      if (wait > maxWait) throw new CrmUnavailableError('rate_limited', wait)
      await sleep(wait, options.signal)
    }
  }

  async function pauseEveryone(ms: number, failures: number): Promise<void> {
    await limits()?.pauses.set(pauseKey, { untilMs: Date.now() + ms, failures })
  }

  return {
    async request({ method = 'GET', path, query, body }) {
      const url = new URL(`${baseUrl}${path}`)
      for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value))
      for (let attempt = 0; ; attempt++) {
        await takeTurn()
        const backoff = baseDelay * 2 ** attempt * (0.8 + Math.random() * 0.4)
        const deadline = AbortSignal.timeout(timeoutMs)
        let response: Response
        let parsed: unknown
        try {
          response = await fetchImpl(url, {
            method,
            signal: options.signal ? AbortSignal.any([options.signal, deadline]) : deadline,
            headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(await options.headers()) },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          })
          parsed = await readJson(response)
        } catch (error) {
          if (options.signal?.aborted) throw options.signal.reason
          if (error instanceof CrmAuthError) throw error
          if (attempt >= maxRetries) throw new CrmUnavailableError(deadline.aborted ? 'timeout' : 'network_error')
          await sleep(backoff, options.signal)
          continue
        }
        if (response.status === 429) {
          const retryAfter = parseRetryAfter(response.headers.get('retry-after'))
          const waitMs = retryAfter !== undefined ? retryAfter * 1000 : backoff
          // The limit is the CRM account's: every process waits, not only this push.
          await pauseEveryone(Math.min(waitMs, maxWait), attempt + 1)
          if (attempt >= maxRetries || waitMs > maxWait) throw new CrmUnavailableError('rate_limited', waitMs)
          if (!limits()) await sleep(waitMs, options.signal)
          continue
        }
        if (response.status >= 500) {
          if (attempt >= maxRetries) throw new CrmUnavailableError(`http_${response.status}`)
          await sleep(backoff, options.signal)
          continue
        }
        if (attempt > 0) await limits()?.pauses.settle(pauseKey)
        return { status: response.status, body: parsed, headers: response.headers }
      }
    },
  }
}

/** The CRM's own words for a refusal (`message` in every one of our providers' error bodies), for the push report. */
export function crmErrorMessage(response: CrmResponse): string {
  const body = response.body as { message?: unknown; error?: unknown } | null
  const message = typeof body?.message === 'string' ? body.message : typeof body?.error === 'string' ? body.error : null
  return (message ?? `HTTP ${response.status}`).slice(0, 500)
}
