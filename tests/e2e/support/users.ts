import { randomBytes } from 'node:crypto'
import type { TestInfo } from '@playwright/test'

export const DEFAULT_PASSWORD = 'correct-horse-42'

/** A fresh address per call: the e2e database is shared by both projects and both workers. */
export function uniqueEmail(prefix = 'user', testInfo?: TestInfo) {
  const project = testInfo ? `-${testInfo.project.name.replace(/^chromium-/, '')}` : ''
  return `e2e-${prefix}${project}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.com`.toLowerCase()
}

export interface TestUser {
  email: string
  password: string
}
