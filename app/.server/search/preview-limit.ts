import type { RouterContextProvider } from 'react-router'
import { consumeLimit, refusalAnswer, refused } from '#app/.server/rate-limit.ts'

/**
 * Counts a preview that is about to run (the search page and /companies share the `preview` limit). Over the limit:
 * the page's message and status, with Retry-After set on `headers`; null when the preview may run.
 */
export async function previewOverLimit(context: Readonly<RouterContextProvider>, userId: string, headers: Headers): Promise<{ message: string; status: number } | null> {
  const overLimit = refused(await consumeLimit('preview', userId))
  if (!overLimit) return null
  const refusal = refusalAnswer(context, overLimit)
  headers.set('Retry-After', refusal.headers['Retry-After'])
  return { message: refusal.message, status: refusal.status }
}
