import fs from 'node:fs'
import type net from 'node:net'
import path from 'node:path'
import getPort from 'get-port'

/**
 * Local services keep their port across restarts, remembered in `<dataDir>/ports.json` ({ name: port }).
 * The demo websites need this most: leads store their URLs, so an export resumed after a restart must find the
 * sites where they were. Embedded Postgres uses it too, so a DATABASE_URL copied for `npm run worker` or psql
 * keeps working. An explicit port (environment variable) always wins over the remembered one.
 */
const FILE = 'ports.json'

function readPorts(dataDir: string): Record<string, number> {
  try {
    const saved = JSON.parse(fs.readFileSync(path.join(dataDir, FILE), 'utf8')) as unknown
    return saved && typeof saved === 'object' ? (saved as Record<string, number>) : {}
  } catch {
    return {} // First start, or an unreadable file: pick a fresh port.
  }
}

function validPort(port: unknown): port is number {
  return Number.isInteger(port) && (port as number) > 0 && (port as number) < 65536
}

/** Records `port` for `name` (atomically: a crash mid-write must not lose the other services' ports). */
function savePort(dataDir: string, name: string, port: number): void {
  const saved = readPorts(dataDir)
  if (saved[name] === port) return
  fs.mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, FILE)
  const temporary = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temporary, `${JSON.stringify({ ...saved, [name]: port }, null, 2)}\n`)
  fs.renameSync(temporary, file)
}

/**
 * A free port for `name`: the one used last time when it is still free, else `preferred`, else any; recorded for the
 * next start. For services that bind the port themselves (Postgres); a Node server should use listenOnRememberedPort,
 * which binds directly (no window between the check and the bind).
 */
export async function rememberedPort(dataDir: string, name: string, { host = '127.0.0.1', preferred }: { host?: string; preferred?: number } = {}): Promise<number> {
  const saved = readPorts(dataDir)[name]
  const candidates = [saved, preferred].filter(validPort)
  const port = await getPort({ host, port: candidates.length ? candidates : undefined })
  savePort(dataDir, name, port)
  return port
}

function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      const address = server.address()
      resolve(typeof address === 'object' && address ? address.port : port)
    })
  })
}

/**
 * Starts `server` listening. `port` given (and not 0): exactly that port (an error when taken: the operator asked for
 * it). Otherwise, with `dataDir`: the port `name` used last time when it is free, else a new one, which is recorded.
 * Without either: any free port. Resolves to the port.
 */
export async function listenOnRememberedPort(
  server: net.Server,
  { port, host = '127.0.0.1', dataDir, name, warn = (message) => console.warn(message) }: { port?: number; host?: string; dataDir?: string; name: string; warn?: (message: string) => void },
): Promise<number> {
  if (port || !dataDir) return listen(server, port ?? 0, host)
  const saved = readPorts(dataDir)[name]
  if (validPort(saved)) {
    try {
      return await listen(server, saved, host)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error
      warn(`[${name}] port ${saved} (used last time, kept in ${path.join(dataDir, FILE)}) is taken: using another one. URLs stored with the old port will not answer.`)
    }
  }
  const actual = await listen(server, 0, host)
  savePort(dataDir, name, actual)
  return actual
}
