// One of our standalone demo servers (server/demo/*.ts) in a child process, so the benchmark's own CPU and memory
// figures are the pipeline's alone.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')

export interface DemoProcess {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

export async function startDemoProcess(file: string, env: Record<string, string>): Promise<DemoProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const match = /at (http:\/\/[^\s)]+)/.exec(out)
      if (match) resolve(match[1] as string)
    })
    child.once('exit', (code) => reject(new Error(`${file} exited (${code}): ${out}`)))
  })
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}
