// Local services keep their port across restarts (leads store the demo sites' URLs).
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { clearLockedPorts } from 'get-port'
import { afterAll, expect, test } from 'vitest'
import { rememberedPort } from '#server/remembered-port.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadatlas-ports-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

test('the same port on the next start, a new one only when it is taken', async () => {
  // get-port holds a port it handed out for a while; a restart is a new process, where it does not.
  const restart = () => clearLockedPorts()
  const first = await rememberedPort(dataDir, 'demo-websites')
  restart()
  expect(await rememberedPort(dataDir, 'demo-websites')).toBe(first)
  const other = await rememberedPort(dataDir, 'demo-registry')
  expect(other).not.toBe(first)
  expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'ports.json'), 'utf8'))).toEqual({ 'demo-websites': first, 'demo-registry': other })

  const squatter = net.createServer()
  await new Promise<void>((resolve) => squatter.listen(first, '127.0.0.1', resolve))
  try {
    restart()
    const moved = await rememberedPort(dataDir, 'demo-websites')
    expect(moved).not.toBe(first)
    restart()
    expect(await rememberedPort(dataDir, 'demo-websites')).toBe(moved)
  } finally {
    squatter.close()
  }
})
