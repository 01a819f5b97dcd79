/**
 * One HTTP exchange with an upstream API, with the failure modes every source maps the same way: the caller's abort
 * propagates untouched, our own deadline becomes `timeout`, a network failure becomes `upstream_error`.
 */
import { LeadSourceError } from './types.ts'

export interface UpstreamResponse {
  status: number
  headers: Headers
  text: string
}

export async function requestUpstream(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  options: { timeoutMs: number; signal?: AbortSignal; upstream: string },
): Promise<UpstreamResponse> {
  options.signal?.throwIfAborted()
  const deadline = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline
  try {
    const response = await fetchImpl(url, { ...init, signal })
    // The body is read under the same deadline: a server that stalls mid-body is as slow as one that never answers.
    const text = await response.text()
    return { status: response.status, headers: response.headers, text }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason
    if (deadline.aborted) throw new LeadSourceError('timeout', `${options.upstream} did not answer within ${Math.round(options.timeoutMs / 1000)} s`)
    throw new LeadSourceError('upstream_error', `${options.upstream} could not be reached: ${(error as Error).message}`)
  }
}

/** A short readable message from an HTML or text error body. */
export function briefText(body: string, max = 300): string {
  return body
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
}
