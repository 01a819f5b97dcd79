import { describe, expect, it } from 'vitest'
import { GuardError, HostAllowList, blockedAddressReason, blockedHostnameReason, resolveVetted, vetUrl } from '#app/.server/enrichment/ssrf.ts'
import { KeyedSemaphore, sleep } from '#app/.server/enrichment/limits.ts'

const none = new HostAllowList([])

function vetError(url: string, allow = none): string | null {
  try {
    vetUrl(url, allow)
    return null
  } catch (error) {
    return error instanceof GuardError ? error.code : String(error)
  }
}

describe('SSRF guard: addresses', () => {
  it('refuses every non-public range', () => {
    const blocked = [
      '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '100.127.255.254',
      '169.254.169.254', '169.254.0.1', '0.0.0.0', '0.1.2.3', '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1', '192.0.2.1',
      '198.51.100.1', '203.0.113.1', '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1',
      '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:7f00:1', '::127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1', '2001:db8::1', '2001::1',
    ]
    for (const address of blocked) expect(blockedAddressReason(address), address).not.toBeNull()
  })

  it('accepts public unicast addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '151.101.1.69', '172.32.0.1', '100.128.0.1', '2606:4700::6810:84e5', '2a00:1450:4007:80f::200e', '::ffff:8.8.8.8']) {
      expect(blockedAddressReason(address), address).toBeNull()
    }
  })

  it('refuses internal hostnames before any DNS', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'api.localhost', 'metadata.google.internal', 'metadata', 'printer.local', 'router', 'nas.home.arpa', 'svc.cluster.local']) {
      expect(blockedHostnameReason(host), host).not.toBeNull()
    }
    expect(blockedHostnameReason('www.boulangerie-martin.fr')).toBeNull()
  })
})

describe('SSRF guard: URLs', () => {
  it('allows http(s) on ports 80/443 to public names and addresses', () => {
    expect(vetError('https://www.boulangerie.fr/')).toBeNull()
    expect(vetError('http://93.184.216.34/')).toBeNull()
    expect(vetError('http://example.org:443/')).toBeNull()
  })

  it('refuses other schemes, ports, credentials and private literals (all spellings)', () => {
    expect(vetError('ftp://example.org/')).toBe('blocked_scheme')
    expect(vetError('file:///etc/passwd')).toBe('blocked_scheme')
    expect(vetError('gopher://example.org:70/')).toBe('blocked_scheme')
    expect(vetError('http://example.org:8080/')).toBe('blocked_port')
    expect(vetError('http://example.org:22/')).toBe('blocked_port')
    expect(vetError('http://user:pass@example.org/')).toBe('invalid_url')
    expect(vetError('not a url')).toBe('invalid_url')
    for (const url of [
      'http://127.0.0.1/', 'http://127.1/', 'http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/',
      'http://[fe80::1]/', 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://172.16.0.1/', 'http://192.168.0.1/', 'http://0.0.0.0/',
      'http://localhost/', 'http://metadata.google.internal/computeMetadata/v1/', 'http://127.0.0.1:8080/', 'http://localtest.localhost/',
    ]) {
      expect(vetError(url), url).toBe('blocked_address')
    }
  })

  it('lets allow-listed hosts through, with the port when one is given', () => {
    const allow = new HostAllowList(['127.0.0.1:4321', 'demo.test', '[::1]:8080', 'Sites.Example'])
    expect(vetError('http://127.0.0.1:4321/sites/x/', allow)).toBeNull()
    expect(vetError('http://127.0.0.1:4322/', allow)).toBe('blocked_address')
    expect(vetError('http://127.0.0.1/', allow)).toBe('blocked_address')
    expect(vetError('http://demo.test:9999/', allow)).toBeNull()
    expect(vetError('http://[::1]:8080/', allow)).toBeNull()
    expect(vetError('http://[::1]:8081/', allow)).toBe('blocked_address')
    expect(vetError('http://sites.example:81/', allow)).toBeNull()
    expect(allow.allows('127.0.0.1', 4321)).toBe(true)
    // A URL given by mistake stands for its host.
    expect(new HostAllowList(['http://127.0.0.1:4321/']).allows('127.0.0.1', 4321)).toBe(true)
  })
})

describe('SSRF guard: resolution', () => {
  const lookupOf = (answers: Record<string, string[]>) => async (host: string) => (answers[host] ?? []).map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }))

  it('refuses a name when any answer is private (rebinding with mixed answers)', async () => {
    const lookup = lookupOf({ 'shop.example.com': ['93.184.216.34', '10.0.0.7'], 'intranet.example.com': ['192.168.1.20'], 'v6.example.com': ['fd00::1'], 'ok.example.com': ['93.184.216.34'] })
    await expect(resolveVetted('shop.example.com', 443, none, lookup)).rejects.toMatchObject({ code: 'blocked_address' })
    await expect(resolveVetted('intranet.example.com', 80, none, lookup)).rejects.toMatchObject({ code: 'blocked_address' })
    await expect(resolveVetted('v6.example.com', 80, none, lookup)).rejects.toMatchObject({ code: 'blocked_address' })
    await expect(resolveVetted('ok.example.com', 443, none, lookup)).resolves.toEqual([{ address: '93.184.216.34', family: 4 }])
    await expect(resolveVetted('ok.example.com', 8443, none, lookup)).rejects.toMatchObject({ code: 'blocked_port' })
    await expect(resolveVetted('169.254.169.254', 80, none, lookup)).rejects.toMatchObject({ code: 'blocked_address' })
    await expect(resolveVetted('nothing.example.com', 80, none, lookup)).rejects.toMatchObject({ code: 'ENOTFOUND' })
  })

  it('resolves allow-listed names to private addresses', async () => {
    const lookup = lookupOf({ 'demo.test': ['127.0.0.1'] })
    await expect(resolveVetted('demo.test', 4321, new HostAllowList(['demo.test:4321']), lookup)).resolves.toEqual([{ address: '127.0.0.1', family: 4 }])
    await expect(resolveVetted('demo.test', 4322, new HostAllowList(['demo.test:4321']), lookup)).rejects.toMatchObject({ code: 'blocked_port' })
    await expect(resolveVetted('demo.test', 80, new HostAllowList(['demo.test:4321']), lookup)).rejects.toMatchObject({ code: 'blocked_address' })
  })
})

describe('limits', () => {
  it('KeyedSemaphore never exceeds the limit per key and hands slots over in order', async () => {
    const semaphore = new KeyedSemaphore((key) => (key === 'wide' ? 3 : 2))
    let active = 0
    let peak = 0
    const order: number[] = []
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        semaphore.run('host', async () => {
          active++
          peak = Math.max(peak, active)
          await sleep(5)
          order.push(i)
          active--
        }),
      ),
    )
    expect(peak).toBe(2)
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(semaphore.size).toBe(0)
  })

  it('KeyedSemaphore waiters leave the queue when aborted', async () => {
    const semaphore = new KeyedSemaphore(() => 1)
    const release = await semaphore.acquire('h')
    const controller = new AbortController()
    const waiting = semaphore.acquire('h', controller.signal)
    controller.abort(new Error('stop'))
    await expect(waiting).rejects.toThrow('stop')
    release()
    expect(semaphore.size).toBe(0)
    const again = await semaphore.acquire('h')
    again()
  })

  it('sleep is abortable', async () => {
    const controller = new AbortController()
    const pending = sleep(10_000, controller.signal)
    controller.abort(new Error('cancelled'))
    await expect(pending).rejects.toThrow('cancelled')
  })
})
