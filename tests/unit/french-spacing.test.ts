import { describe, expect, it } from 'vitest'
import { withFrenchSpacing } from '#app/i18n.ts'

describe('French typography of the messages', () => {
  it('binds the space before : ; ? ! » and after « to its word, in every nested message', () => {
    const messages = withFrenchSpacing({ a: 'Prêt : 12 prospects ; voir ? oui !', nested: { b: 'L’export « Brest » est prêt' } })
    expect(messages.a).toBe('Prêt\u00a0: 12 prospects\u00a0; voir\u00a0? oui\u00a0!')
    expect(messages.nested.b).toBe('L’export «\u00a0Brest\u00a0» est prêt')
  })

  it('leaves what has no such space alone (links, times, placeholders)', () => {
    const messages = withFrenchSpacing({ a: 'https://app.example/?q=1 à 10:30, {{count}}' })
    expect(messages.a).toBe('https://app.example/?q=1 à 10:30, {{count}}')
  })
})
