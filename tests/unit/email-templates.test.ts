import { describe, expect, it } from 'vitest'
import { emailLanguage, existingAccountEmail, passwordResetEmail } from '#app/.server/email/templates.ts'

describe('the emails the product sends', () => {
  it('the reset email: branded, localized, with its link and expiry, as HTML and text', () => {
    const link = 'https://app.example/reset-password?lang=fr&token_hash=abc&type=recovery'
    const french = passwordResetEmail({ link, lang: 'fr', expiresInMinutes: 60 })
    expect(french.subject).toBe('Réinitialisez votre mot de passe LeadAtlas')
    expect(french.html).toContain('<html lang="fr">')
    expect(french.html).toContain('LeadAtlas')
    expect(french.html).toContain('href="https://app.example/reset-password?lang=fr&#38;token_hash=abc&#38;type=recovery"')
    expect(french.text).toContain(`Choisir un nouveau mot de passe : ${link}`)
    expect(french.text).toContain('expire dans 60 minutes')
    const english = passwordResetEmail({ link, lang: 'en', expiresInMinutes: 60 })
    expect(english.subject).toBe('Reset your LeadAtlas password')
    expect(english.text).toContain('expires in 60 minutes')
  })

  it('the sign-up attempt email uses the same layout', () => {
    const mail = existingAccountEmail({ signInLink: 'https://app.example/login', resetLink: 'https://app.example/login?mode=forgot', lang: 'en' })
    expect(mail.subject).toBe('Someone tried to create an account with your address')
    expect(mail.html).toContain('Sign in to LeadAtlas')
    expect(mail.text).toContain('https://app.example/login?mode=forgot')
  })

  it('escapes what it writes into HTML', () => {
    const mail = passwordResetEmail({ link: 'https://x.example/"><script>alert(1)</script>', lang: 'en', expiresInMinutes: 60 })
    expect(mail.html).not.toContain('<script>')
  })

  it('picks the first language it writes in, else English', () => {
    expect(emailLanguage(null, 'fr-FR')).toBe('fr')
    expect(emailLanguage('de', undefined)).toBe('en')
    expect(emailLanguage('en', 'fr')).toBe('en')
  })
})
