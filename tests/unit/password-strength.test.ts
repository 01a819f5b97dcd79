import { describe, expect, it } from 'vitest'
import { isCommonPassword } from '#app/.server/password-strength.ts'

describe('isCommonPassword', () => {
  it('refuses leaked-list passwords, repeats, sequences, keyboard walks and their l33t forms', () => {
    for (const password of ['123456', 'password', 'aaaaaa', 'qwerty', 'azerty', 'iloveyou', '12345678', 'p@ssw0rd', 'zaq12wsx', 'football']) {
      expect(isCommonPassword(password), password).toBe(true)
    }
  })

  it('takes passwords that are merely short or plain, and passphrases', () => {
    for (const password of ['correct-horse-42', 'whatever-1', 'another-secret-1', 'P@ssw0rd1!x', 'soleil-de-mai', 'a'.repeat(20) + '-9f8s7d6f5g']) {
      expect(isCommonPassword(password), password).toBe(false)
    }
  })

  it('answers quickly for long crafted input (only the first 32 characters are weighed)', () => {
    const started = performance.now()
    for (const base of ['1q2w3e4r5t6y7u8i9o0p!@#$%^&*()_+', 'p@$$w0rd!', 'aZ1!']) isCommonPassword(base.repeat(30).slice(0, 200))
    // Before the caps: over 300 ms for one of these. Loose: the test machine is shared.
    expect(performance.now() - started).toBeLessThan(300)
  })
})
