import fs from 'node:fs'
import path from 'node:path'
import getPort from 'get-port'

/**
 * A port for the local service `name` that stays the same across restarts: the one used last time
 * (kept in `<dataDir>/ports.json`) when it is still free. The demo websites need this: leads store
 * their URLs, so an export resumed after a restart must find the sites where they were.
 */
export async function rememberedPort(dataDir: string, name: string, host = '127.0.0.1'): Promise<number> {
  const file = path.join(dataDir, 'ports.json')
  let saved: Record<string, number> = {}
  try {
    saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>
  } catch {
    // First start, or an unreadable file: pick a fresh port.
  }
  const port = await getPort({ host, port: Number.isInteger(saved[name]) ? saved[name] : undefined })
  if (saved[name] !== port) {
    fs.mkdirSync(dataDir, { recursive: true })
    fs.writeFileSync(file, `${JSON.stringify({ ...saved, [name]: port }, null, 2)}\n`)
  }
  return port
}
