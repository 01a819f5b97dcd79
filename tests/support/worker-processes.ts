/**
 * `npm run worker` processes (server/worker.ts) as separate OS processes, for the tests and the bench that need real
 * workers on one database: started with the environment given, ready once they print "Worker started", stopped
 * with SIGTERM (graceful) or SIGKILL (a crash). Their output is kept for assertions and failure messages.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')

export interface WorkerProcess {
  readonly name: string
  readonly pid: number
  /** Everything it printed so far (stdout and stderr, in arrival order). */
  output(): string
  /** Resolves when it has exited, with its exit code (null when a signal ended it) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly running: boolean
  kill(signal: 'SIGTERM' | 'SIGKILL'): void
}

function describe(child: ChildProcess, name: string): WorkerProcess {
  const chunks: string[] = []
  child.stdout?.on('data', (chunk) => chunks.push(String(chunk)))
  child.stderr?.on('data', (chunk) => chunks.push(String(chunk)))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  return {
    name,
    pid: child.pid as number,
    output: () => chunks.join(''),
    exited,
    get running() {
      return child.exitCode === null && child.signalCode === null
    },
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    },
  }
}

/** Starts one worker process with `env` (on top of this process's environment) and waits until it takes jobs. */
export async function startWorkerProcess(env: Record<string, string>, { name = 'worker', timeoutMs = 60_000 } = {}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const worker = describe(child, name)
  const deadline = Date.now() + timeoutMs
  while (!worker.output().includes('Worker started')) {
    if (!worker.running || Date.now() > deadline) {
      worker.kill('SIGKILL')
      throw new Error(`${name} did not start (${worker.running ? 'timed out' : 'exited'}):\n${worker.output()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return worker
}

/** Starts `count` workers at once, named worker-1..n; if one fails to start, the others are killed. */
export async function startWorkerProcesses(count: number, env: Record<string, string>, options: { timeoutMs?: number } = {}): Promise<WorkerProcess[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, (_, index) => startWorkerProcess(env, { ...options, name: `worker-${index + 1}` })))
  const workers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const failure = started.find((result) => result.status === 'rejected')
  if (failure) {
    await stopWorkerProcesses(workers, 'SIGKILL')
    throw failure.reason
  }
  return workers
}

/** Signals every worker still running and waits for all of them to exit. */
export async function stopWorkerProcesses(workers: readonly WorkerProcess[], signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  for (const worker of workers) worker.kill(signal)
  await Promise.all(workers.map((worker) => worker.exited))
}
