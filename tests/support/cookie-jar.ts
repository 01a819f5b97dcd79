/** The cookies a response sets, added to `previous` as a Cookie header (later values win). */
export function cookieHeader(response: Response, previous = ''): string {
  const jar = new Map(previous ? previous.split('; ').map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]) : [])
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';')
    const [name = '', value = ''] = pair.split(/=(.*)/s)
    jar.set(name.trim(), value)
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
}
