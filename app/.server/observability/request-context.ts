/**
 * The request a piece of code runs for: its id and, once the app has resolved the session, the signed-in user's id.
 * Log lines written while serving the request carry both (logger.ts reads them).
 *
 * The store lives on globalThis: the HTTP layer (server/http-app.ts, loaded by tsx) and the app (the React Router
 * build, a bundle with its own copy of this module) must share one AsyncLocalStorage.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

export interface RequestObservation {
  requestId: string
  userId?: string
}

const KEY = Symbol.for('leadatlas.request-observation')
const holder = globalThis as { [KEY]?: AsyncLocalStorage<RequestObservation> }
const storage = (holder[KEY] ??= new AsyncLocalStorage<RequestObservation>())

export function runWithRequest<T>(observation: RequestObservation, fn: () => T): T {
  return storage.run(observation, fn)
}

export function currentRequest(): RequestObservation | undefined {
  return storage.getStore()
}

/** Called where the app resolves the signed-in user (session or API key): the request's logs name that user. */
export function noteRequestUser(userId: string): void {
  const observation = storage.getStore()
  if (observation) observation.userId = userId
}
