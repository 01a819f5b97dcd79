/**
 * On whose behalf a request to an upstream is made: the account whose fair share of a shared budget it spends
 * (fair.ts). Carried in an AsyncLocalStorage rather than as a parameter: a registry lookup or an Overpass query is
 * many calls below the request handler or the export job that knows the user (sources, enrichers, the crawler), and
 * every layer in between would otherwise have to pass it along. Work started outside any account (start-up probes,
 * scripts) counts as one shared account, SYSTEM_ACCOUNT.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

const SYSTEM_ACCOUNT = 'system'

const KEY = Symbol.for('leadatlas.account-context')
type WithContext = typeof globalThis & { [KEY]?: AsyncLocalStorage<string> }

// On globalThis: the app's bundle and the in-process worker load their own copies of this module, and an account set
// by one (a preview) must be read by the sources the other built.
function storage(): AsyncLocalStorage<string> {
  const holder = globalThis as WithContext
  return (holder[KEY] ??= new AsyncLocalStorage<string>())
}

/** Runs `work` with every upstream request it makes counted against `account`'s share. */
export function onBehalfOf<T>(account: string | null | undefined, work: () => T): T {
  return account ? storage().run(account, work) : work()
}

export function currentAccount(): string {
  return storage().getStore() ?? SYSTEM_ACCOUNT
}
