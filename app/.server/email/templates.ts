/**
 * The emails LeadAtlas sends, in one branded layout and the recipient's language (issue "Polish round 3", item 9): the
 * password reset and the sign-up attempt on a registered address today, the notifications of exports and saved
 * searches next. Each email is its texts in app/locales (`emails.<kind>`) put into the same layout, as HTML (inline
 * styles, a table layout mail clients render) and as plain text. Every value is escaped; links are written as given.
 */
import en from '#app/locales/en.json' with { type: 'json' }
import fr from '#app/locales/fr.json' with { type: 'json' }
import { notificationMessageKey, notificationPath, type NotificationData, type NotificationKind } from '#app/domain/notifications.ts'

const MESSAGES = { en: en.emails, fr: fr.emails }
export type EmailLanguage = keyof typeof MESSAGES

export interface RenderedEmail {
  subject: string
  text: string
  html: string
}

/** The first candidate that is a language we write emails in (a user's stored locale, the request's…), else English. */
export function emailLanguage(...candidates: unknown[]): EmailLanguage {
  for (const candidate of candidates) {
    const code = typeof candidate === 'string' ? candidate.trim().slice(0, 2).toLowerCase() : ''
    if (Object.hasOwn(MESSAGES, code)) return code as EmailLanguage
  }
  return 'en'
}

const fill = (template: string, values: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole))

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

interface EmailContent {
  lang: EmailLanguage
  subject: string
  /** The line mail clients show after the subject. */
  preheader: string
  heading: string
  paragraphs: string[]
  action?: { label: string; href: string }
  /** Small print under the button (expiry, what to do if it was not you). */
  notes: string[]
}

const BRAND = '#3b55e6'

/** The one layout every email uses: wordmark, heading, text, one button, notes, footer. */
function render(content: EmailContent): RenderedEmail {
  const layout = MESSAGES[content.lang].layout
  const paragraph = (text: string) => `<p style="margin:0 0 16px;font-size:15px;line-height:1.6;color:#334155">${escapeHtml(text)}</p>`
  const note = (text: string) => `<p style="margin:0 0 8px;font-size:13px;line-height:1.5;color:#64748b">${escapeHtml(text)}</p>`
  const button = content.action
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px"><tr><td style="border-radius:8px;background:${BRAND}">` +
      `<a href="${escapeHtml(content.action.href)}" style="display:inline-block;padding:12px 22px;font-size:15px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:8px">${escapeHtml(content.action.label)}</a>` +
      `</td></tr></table>` +
      note(`${layout.linkFallback} ${content.action.href}`)
    : ''
  const html = `<!doctype html>
<html lang="${content.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(content.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:32px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px">
<tr><td style="padding:0 4px 16px;font-size:20px;font-weight:700;color:${BRAND}">LeadAtlas</td></tr>
<tr><td style="background:#ffffff;border-radius:16px;padding:32px;border:1px solid #e2e8f0">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#0f172a">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map(paragraph).join('\n')}
${button}
${content.notes.map(note).join('\n')}
</td></tr>
<tr><td style="padding:16px 4px;font-size:12px;line-height:1.5;color:#94a3b8">${escapeHtml(layout.footer)}</td></tr>
</table></td></tr></table></body></html>`
  const text = [
    'LeadAtlas',
    '',
    content.heading,
    '',
    ...content.paragraphs.flatMap((line) => [line, '']),
    ...(content.action ? [`${content.action.label}${content.lang === 'fr' ? ' :' : ':'} ${content.action.href}`, ''] : []),
    ...content.notes.flatMap((line) => [line, '']),
    '--',
    layout.footer,
  ].join('\n')
  return { subject: content.subject, text, html }
}

/** The reset link of the local auth server, valid `expiresInMinutes`. */
export function passwordResetEmail({ link, lang, expiresInMinutes }: { link: string; lang: EmailLanguage; expiresInMinutes: number }): RenderedEmail {
  const texts = MESSAGES[lang].passwordReset
  return render({
    lang,
    subject: texts.subject,
    preheader: texts.preheader,
    heading: texts.heading,
    paragraphs: [texts.intro],
    action: { label: texts.button, href: link },
    notes: [fill(texts.expiry, { minutes: expiresInMinutes }), texts.ignore],
  })
}

/** Someone signed up with an address that already has an account: the owner is told, and how to get in. */
export function existingAccountEmail({ signInLink, resetLink, lang }: { signInLink: string; resetLink: string; lang: EmailLanguage }): RenderedEmail {
  const texts = MESSAGES[lang].existingAccount
  return render({
    lang,
    subject: texts.subject,
    preheader: texts.body,
    heading: texts.heading,
    paragraphs: [texts.body],
    action: { label: texts.signInButton, href: signInLink },
    notes: [`${texts.reset} ${resetLink}`, texts.ignore],
  })
}

const NOTIFICATION_SENTENCES = { en: en.notifications, fr: fr.notifications }

/**
 * A notification as an email: its in-app sentence (notifications.kinds.*, the same words as the bell's list), a
 * button to its page, and where to switch such emails off when a preference governs them.
 */
export function notificationEmail({ kind, data, lang, appUrl, switchable }: { kind: NotificationKind; data: NotificationData; lang: EmailLanguage; appUrl: string; switchable: boolean }): RenderedEmail & { link: string } {
  // The in-app sentence's key names the email's texts too (export_completed, …).
  const key = notificationMessageKey(kind).slice('notifications.kinds.'.length) as Exclude<keyof typeof MESSAGES.en.notification, 'preferences'>
  const texts = MESSAGES[lang].notification[key]
  const sentences = NOTIFICATION_SENTENCES[lang]
  const count = data.newCount ?? data.leadCount ?? 0
  const kinds = sentences.kinds as Record<string, string>
  const sentence = kinds[key] ?? kinds[`${key}_${count === 1 ? 'one' : 'other'}`] ?? ''
  const reason = data.reason ? ((sentences.reasons as Record<string, string>)[data.reason] ?? '') : ''
  const values = { name: data.name ?? '', url: data.url ?? '', count, credits: data.credits ?? 0, reason }
  const origin = appUrl.replace(/\/+$/, '')
  const link = `${origin}${notificationPath(data)}`
  const email = render({
    lang,
    subject: fill(texts.subject, values),
    preheader: fill(sentence, values),
    heading: texts.heading,
    paragraphs: [fill(sentence, values)],
    action: { label: texts.button, href: link },
    notes: switchable ? [fill(MESSAGES[lang].notification.preferences, { link: `${origin}/settings#notifications` })] : [],
  })
  return { ...email, link }
}

/** An invitation to join a team: who invited, to which workspace, the button to accept, and when the link expires. */
export function teamInvitationEmail({ lang, link, workspace, inviter, expiresInDays }: { lang: EmailLanguage; link: string; workspace: string; inviter: string; expiresInDays: number }): RenderedEmail {
  const texts = MESSAGES[lang].teamInvitation
  const values = { workspace, inviter, days: expiresInDays }
  return render({
    lang,
    subject: fill(texts.subject, values),
    preheader: fill(texts.intro, values),
    heading: fill(texts.heading, values),
    paragraphs: [fill(texts.intro, values), texts.body],
    action: { label: texts.button, href: link },
    notes: [fill(texts.expiry, values), texts.ignore],
  })
}
