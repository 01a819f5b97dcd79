import type { IncomingMessage, ServerResponse } from 'node:http'
import type pg from 'pg'
import { expect, test } from 'vitest'
import { answerOpsRequest, type OpsOptions } from '#app/.server/observability/health.ts'

function fakeResponse() {
  const response = { statusCode: 0, body: '', setHeader: () => response, end: (body: string) => void (response.body = body) }
  return response
}

test('concurrent /readyz probes share one database check; the next probe checks again', async () => {
  let queries = 0
  const pool = {
    query: async () => {
      queries++
      await new Promise((resolve) => setTimeout(resolve, 20))
      return { rows: [{ version: '1' }] }
    },
  } as unknown as pg.Pool
  const options: OpsOptions = { pool: () => pool, metrics: false, migrations: () => ['1'] }
  const probe = async () => {
    const response = fakeResponse()
    await answerOpsRequest({ method: 'GET', url: '/readyz' } as IncomingMessage, response as unknown as ServerResponse, options)
    return response
  }
  const answers = await Promise.all(Array.from({ length: 20 }, probe))
  expect(queries).toBe(1)
  expect(answers.every((answer) => answer.statusCode === 200 && JSON.parse(answer.body).status === 'ready')).toBe(true)
  expect((await probe()).statusCode).toBe(200)
  expect(queries).toBe(2)
})
