import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import en from '#app/locales/en.json'
import fr from '#app/locales/fr.json'

function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const name = prefix ? `${prefix}.${key}` : key
    if (child && typeof child === 'object') for (const [k, v] of flatten(child, name)) out.set(k, v)
    else out.set(name, String(child))
  }
  return out
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()

describe('locale files', () => {
  const enKeys = flatten(en)
  const frKeys = flatten(fr)
  it('have identical keys', () => {
    expect([...frKeys.keys()].sort()).toEqual([...enKeys.keys()].sort())
  })
  it('have no empty messages and the same placeholders', () => {
    for (const [key, text] of enKeys) {
      expect(text.trim(), `en ${key}`).not.toBe('')
      expect(frKeys.get(key)?.trim(), `fr ${key}`).not.toBe('')
      expect(placeholders(frKeys.get(key) ?? ''), key).toEqual(placeholders(text))
    }
  })
  it('cover every t("…") key used in the app', () => {
    const files = fs.readdirSync('app', { recursive: true, encoding: 'utf8' }).filter((file) => /\.(tsx?|ts)$/.test(file))
    const used = new Set<string>()
    for (const file of files) {
      const source = fs.readFileSync(path.join('app', file), 'utf8')
      for (const match of source.matchAll(/\bt\(\s*'([a-zA-Z_]+(?:\.[a-zA-Z_]+)+)'/g)) used.add(match[1]!)
      for (const match of source.matchAll(/(?:titleKey|labelKey|error):\s*'([a-zA-Z_]+(?:\.[a-zA-Z_]+)+)'/g)) used.add(match[1]!)
    }
    const missing = [...used].filter((key) => !enKeys.has(key) && !enKeys.has(`${key}_other`))
    expect(missing).toEqual([])
  })
})
