// `npm start` in a shell prints lines a person reads; redirected, it prints JSON lines (issue 28, page budgets and
// house). The logger decides from stdout itself, so each case runs it in a child process: on a pipe, and on a
// pseudo-terminal made by util-linux's `script`.
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { loadPrettifier } from '#app/.server/observability/logger.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx')
const run = promisify(execFile)
const env = { ...process.env, LOG_LEVEL: 'info' }
const prettyInstalled = loadPrettifier() !== undefined

/** The child's output lines, with stdout a pipe. */
async function onPipe() {
  const { stdout } = await run(TSX, ['tests/support/log-line.ts'], { cwd: ROOT, env })
  return stdout.split('\n').filter(Boolean)
}

/** The child's output lines, with stdout a terminal (`script` copies what the terminal shows, with CRs). */
async function onTerminal() {
  const { stdout } = await run('script', ['-qec', `${TSX} tests/support/log-line.ts`, '/dev/null'], { cwd: ROOT, env })
  return stdout.split(/\r?\n/).filter(Boolean)
}

describe('log lines', () => {
  test('are JSON on a pipe', async () => {
    const lines = await onPipe()
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'info', component: 'leadatlas', port: 3000, msg: '[leadatlas] Listening on http://127.0.0.1:3000' })
  })

  test.skipIf(!prettyInstalled)('are readable on a terminal: level, message and fields, not a JSON object', async () => {
    // eslint-disable-next-line no-control-regex -- pino-pretty colours the level for the terminal
    const text = (await onTerminal()).join('\n').replace(/\u001b\[[0-9;]*m/g, '')
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[leadatlas\] Listening on http:\/\/127\.0\.0\.1:3000/m)
    expect(text).toMatch(/component: "leadatlas"/)
    expect(() => JSON.parse(text.split('\n')[0] as string)).toThrow()
  })

  test.skipIf(prettyInstalled)('stay JSON on a terminal while pino-pretty is not installed (no crash, nothing lost)', async () => {
    const lines = await onTerminal()
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'info', msg: '[leadatlas] Listening on http://127.0.0.1:3000' })
  })
})
