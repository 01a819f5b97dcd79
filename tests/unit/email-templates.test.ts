import { describe, expect, it } from 'vitest'
import { emailLanguage, existingAccountEmail, notificationEmail, passwordResetEmail } from '#app/.server/email/templates.ts'

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

  it('a notification says what the bell says, links to its page and to the switch that governs it', () => {
    const id = '6f1c1a52-6c4e-4b8e-9a53-1f4d3c2b1a00'
    const one = notificationEmail({ kind: 'saved_search.new_businesses', data: { savedSearchId: id, name: 'Bakeries', newCount: 1 }, lang: 'en', appUrl: 'https://app.example/', switchable: true })
    expect(one.subject).toBe('“Bakeries”: new businesses found')
    expect(one.text).toContain('Saved search “Bakeries” found 1 new business.')
    expect(one.link).toBe('https://app.example/saved-searches')
    expect(one.text).toContain('https://app.example/settings#notifications')
    const many = notificationEmail({ kind: 'saved_search.new_businesses', data: { name: 'Boulangeries', newCount: 4 }, lang: 'fr', appUrl: 'https://app.example', switchable: true })
    expect(many.text).toContain('La recherche enregistrée « Boulangeries » a trouvé 4 nouvelles entreprises.')
    const stopped = notificationEmail({ kind: 'export.interrupted', data: { exportId: id, name: '<b>x</b>', reason: 'insufficient_credits' }, lang: 'en', appUrl: 'https://app.example', switchable: true })
    expect(stopped.link).toBe(`https://app.example/exports/${id}`)
    expect(stopped.text).toContain('Export “<b>x</b>” stopped: you ran out of credits.')
    expect(stopped.html).not.toContain('<b>x</b>')
    const disabled = notificationEmail({ kind: 'webhook.disabled', data: { endpointId: id, url: 'https://crm.example/hook' }, lang: 'fr', appUrl: 'https://app.example', switchable: false })
    expect(disabled.link).toBe(`https://app.example/settings/api/webhooks/${id}`)
    expect(disabled.text).not.toContain('/settings#notifications')
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
