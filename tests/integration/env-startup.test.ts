import { spawn } from 'node:child_process'
import path from 'node:path'
import { expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '..', '..')

/** Runs `server/start.ts` with `extra` in its environment; resolves with its exit code and output. */
function start(extra: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: path.join(ROOT, '.data', `env-startup-${process.pid}`), ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += String(chunk)))
    child.stderr.on('data', (chunk) => (output += String(chunk)))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.on('error', reject)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

it('npm start stops at once, naming the variable, when a setting is invalid', async () => {
  const { code, output } = await start({ EXPORT_CONCURRENCY: 'many' })
  expect(code).not.toBe(0)
  expect(output).toContain('Invalid environment variable EXPORT_CONCURRENCY: expected a number')
  // Nothing was started before the check.
  expect(output).not.toContain('Embedded Postgres ready')
})
