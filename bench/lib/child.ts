// Runs one benchmark scenario in a fresh Node process (same Node, with tsx), so its memory
// figures are its own. The child prints its result as one JSON line after RESULT_MARKER.
import { spawn } from 'node:child_process'

const RESULT_MARKER = '@@bench-result '

export async function runInChild<T>(file: string, args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<T> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', file, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  const line = stdout.split('\n').find((candidate) => candidate.startsWith(RESULT_MARKER))
  if (code !== 0 || !line) throw new Error(`bench child ${args.join(' ')} failed (exit ${code}):\n${stdout}`)
  return JSON.parse(line.slice(RESULT_MARKER.length)) as T
}

/** In the child: report the result to the parent. */
export function reportToParent(result: unknown): void {
  process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`)
}
