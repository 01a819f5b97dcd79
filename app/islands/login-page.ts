// What /login's forms need in the browser, without React: the page is served as HTML with no hydration (root.tsx's
// DocumentHandle), so a new visitor on a slow link downloads a few KB instead of React, React Router and i18next
// (~108 KB brotli). The same markup works with no script at all; this only makes it quicker and kinder:
// - the fields are checked before posting, with the rules the server's zod schemas share (app/domain/auth-fields.ts)
//   and the messages the server wrote into the page (#island-messages);
// - a submit button says it is pending, and a second press does not post twice;
// - the password fields get their show/hide toggle;
// - "Forgot your password?" opens its dialog in place, with the email already typed; Escape, ✕ and Cancel close it
//   and put focus back on the link; Tab stays inside it;
// - switching between sign-in and sign-up happens in place, keeping what was typed (Back switches back).
// A client-side navigation to /login renders the React page instead (the route module), never this script.
import { fieldErrors, FORGOT_PASSWORD_FIELDS, PROFILE_FIELDS, SIGN_IN_FIELDS, type FieldCheck } from '../domain/auth-fields.ts'

const CHECKS: Record<string, Record<string, FieldCheck>> = { signIn: SIGN_IN_FIELDS, forgot: FORGOT_PASSWORD_FIELDS, profile: PROFILE_FIELDS }
const FOCUSABLE = 'a[href], button:not([disabled]):not([hidden]), input:not([disabled]):not([type="hidden"]), select, textarea'

function readMessages(): Record<string, string> {
  try {
    return JSON.parse(document.getElementById('island-messages')?.textContent ?? '{}') as Record<string, string>
  } catch {
    return {}
  }
}
const messages = readMessages()

/** Shows `keys`' messages under `input` as Field's ErrorList does (same id, classes and ARIA), or clears them. */
function showFieldErrors(input: HTMLInputElement, keys: string[]) {
  const errorId = `${input.id}-error`
  document.getElementById(errorId)?.remove()
  if (!keys.length) {
    input.removeAttribute('aria-invalid')
    input.removeAttribute('aria-describedby')
    return
  }
  const list = document.createElement('ul')
  list.id = errorId
  list.className = 'mt-1.5 space-y-1'
  for (const key of keys) {
    const item = document.createElement('li')
    item.className = 'text-sm text-red-600'
    item.textContent = messages[key] ?? key
    list.append(item)
  }
  input.parentElement?.after(list)
  input.setAttribute('aria-invalid', 'true')
  input.setAttribute('aria-describedby', errorId)
}

/** Checks `names` (all the form's checked fields by default); true when none has an error. */
function checkForm(form: HTMLFormElement, names?: string[]): boolean {
  const checks = CHECKS[form.dataset.checks ?? '']
  if (!checks) return true
  const values = Object.fromEntries(new FormData(form).entries())
  const errors = fieldErrors(checks, values)
  let firstInvalid: HTMLInputElement | null = null
  for (const name of names ?? Object.keys(checks)) {
    const input = form.elements.namedItem(name)
    if (!(input instanceof HTMLInputElement)) continue
    showFieldErrors(input, errors[name] ?? [])
    if (errors[name] && !firstInvalid) firstInvalid = input
  }
  if (!names) firstInvalid?.focus()
  return !firstInvalid
}

function markPending(form: HTMLFormElement, submitter: HTMLElement | null) {
  form.dataset.pending = 'true'
  const button = submitter instanceof HTMLButtonElement ? submitter : form.querySelector<HTMLButtonElement>('button[type="submit"]')
  if (!button) return
  button.setAttribute('aria-busy', 'true')
  const label = button.dataset.pendingLabel
  // After the browser read the form (a disabled submitter would leave its name=value out of the post).
  setTimeout(() => {
    button.disabled = true
    if (label) {
      button.dataset.label = button.textContent ?? ''
      button.textContent = label
    }
  })
}

/** A page restored from the back-forward cache: the forms are not pending any more. */
function clearPending() {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-pending]')) delete form.dataset.pending
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[aria-busy]')) {
    button.removeAttribute('aria-busy')
    button.disabled = false
    if (button.dataset.label !== undefined) button.textContent = button.dataset.label
  }
}

function enhanceForms() {
  document.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement
    // A button that skips the checks ("Skip for now") posts as it is.
    const unchecked = event.submitter instanceof HTMLButtonElement && event.submitter.formNoValidate
    if (form.dataset.pending || (!unchecked && !checkForm(form))) {
      event.preventDefault()
      return
    }
    // The URL this page may have changed in place (a view or dialog switched to) is where the language switch returns.
    for (const input of form.querySelectorAll<HTMLInputElement>('input[data-current-url]')) input.value = here()
    markPending(form, event.submitter)
  })
  // Once a field shows an error, typing rechecks it; the profile's fields are checked as they are left.
  document.addEventListener('input', (event) => {
    const input = event.target as HTMLInputElement
    if (input.form && input.getAttribute('aria-invalid') === 'true') checkForm(input.form, [input.name])
  })
  document.addEventListener('focusout', (event) => {
    const input = event.target as HTMLInputElement
    if (input.form?.dataset.validate === 'blur' && input.name) checkForm(input.form, [input.name])
  })
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) clearPending()
  })
}

/** Shows the toggles under `root` (the page, or a view just switched to) and gives their fields room. */
function revealPasswordToggles(root: ParentNode) {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-password-toggle]')) {
    button.hidden = false
    document.getElementById(button.getAttribute('aria-controls') ?? '')?.classList.add('pr-11')
  }
}

function enhancePasswordToggles() {
  revealPasswordToggles(document)
  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-password-toggle]')
    const input = document.getElementById(button?.getAttribute('aria-controls') ?? '')
    if (!button || !(input instanceof HTMLInputElement)) return
    const visible = input.type === 'password'
    input.type = visible ? 'text' : 'password'
    button.setAttribute('aria-pressed', String(visible))
    button.setAttribute('aria-label', (visible ? button.dataset.hideLabel : button.dataset.showLabel) ?? '')
    button.querySelector('[data-eye-off]')?.classList.toggle('hidden', !visible)
  })
}

/** A click that follows a link in this tab (not one opening it elsewhere): the page may handle it in place. */
const isPlainClick = (event: MouseEvent) => !(event.metaKey || event.ctrlKey || event.shiftKey) && event.button === 0

/** The email typed in the credentials form, for the dialog. */
function typedEmail(): string {
  const input = document.querySelector<HTMLInputElement>('#credentials-form input[name="email"]')
  return input?.value.trim() ?? ''
}

/** The views met so far (sign-in, sign-up) by their URL: Back and a second switch find them as they were left. */
const views = new Map<string, HTMLElement>()
const here = () => location.pathname + location.search

/**
 * Puts the view of `href` (its template, or as it was left) in place of the current one, carrying over what was typed
 * in the fields both have (the sign-in and sign-up forms share theirs); its own error messages stay behind with it.
 */
function switchView(href: string, { push }: { push: boolean }) {
  const current = document.querySelector<HTMLElement>('[data-view]')
  const template = document.querySelector<HTMLTemplateElement>(`template[data-view-href="${CSS.escape(href)}"]`)
  const next = views.get(href) ?? template?.content.firstElementChild?.cloneNode(true)
  if (!current || !(next instanceof HTMLElement) || next === current) return false
  for (const input of next.querySelectorAll<HTMLInputElement>('input[name]:not([type="hidden"])')) {
    const typed = current.querySelector<HTMLInputElement>(`input[name="${input.name}"]`)
    if (typed) input.value = typed.value
  }
  views.set(here(), current)
  if (push) history.pushState({ view: href }, '', href)
  current.replaceWith(next)
  revealPasswordToggles(next)
  next.querySelector<HTMLElement>('a[data-swaps-view]')?.focus()
  return true
}

function enhanceViews() {
  document.addEventListener('click', (event) => {
    if (!isPlainClick(event)) return
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-swaps-view]')
    if (link && switchView(link.getAttribute('href') ?? '', { push: true })) event.preventDefault()
  })
  window.addEventListener('popstate', () => {
    if (views.has(here())) switchView(here(), { push: false })
  })
}

const openDialog = () => document.querySelector<HTMLElement>('[data-island-dialog]')
const openerOf = (id: string) => document.querySelector<HTMLElement>(`a[data-opens-dialog="${id}"]`)

/**
 * Opens dialog `id` from its template (the page's fresh copy), with the email already typed. `href` (the dialog's own
 * URL) goes into the history when it is opened from its link, so that Back closes it.
 */
function openFromTemplate(id: string, href: string | null) {
  const template = document.querySelector<HTMLTemplateElement>(`template[data-dialog-template="${id}"]`)
  const root = template?.content.firstElementChild?.cloneNode(true)
  if (!template || !(root instanceof HTMLElement) || openDialog()) return false
  const email = root.querySelector<HTMLInputElement>('input[name="email"]')
  if (email) email.value = typedEmail()
  for (const under of document.querySelectorAll<HTMLElement>('[data-under-dialog]')) under.inert = true
  template.after(root)
  if (href) history.pushState({ dialog: id }, '', href)
  ;(email ?? root.querySelector<HTMLElement>(FOCUSABLE))?.focus()
  return true
}

/**
 * Takes the dialog away at once, so that an Enter right after Escape reaches the opener, never the dialog's form. A
 * dialog that shows the server's answer (email sent, an error) is left by loading the page it closes to, which drops
 * that answer as without JavaScript.
 */
function closeDialog(root: HTMLElement, { fromHistory = false } = {}) {
  root.remove()
  for (const under of document.querySelectorAll<HTMLElement>('[data-under-dialog]')) under.inert = false
  openerOf(root.id)?.focus()
  const closeHref = root.dataset.closeHref ?? location.pathname
  if (root.dataset.answered !== undefined) location.replace(closeHref)
  else if (!fromHistory) history.replaceState(null, '', closeHref)
}

function trapTab(root: HTMLElement, event: KeyboardEvent) {
  const items = Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE))
  if (!items.length) return
  const first = items[0]!
  const last = items[items.length - 1]!
  if (event.shiftKey && (document.activeElement === first || !root.contains(document.activeElement))) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && (document.activeElement === last || !root.contains(document.activeElement))) {
    event.preventDefault()
    first.focus()
  }
}

function enhanceDialogs() {
  document.addEventListener('click', (event) => {
    if (!isPlainClick(event)) return
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-opens-dialog], a[data-dialog-close]')
    const root = openDialog()
    if (link?.dataset.opensDialog !== undefined && openFromTemplate(link.dataset.opensDialog, link.href)) event.preventDefault()
    else if (link?.dataset.dialogClose !== undefined && root?.contains(link)) {
      event.preventDefault()
      closeDialog(root)
    }
  })
  document.addEventListener('keydown', (event) => {
    const root = openDialog()
    if (!root) return
    if (event.key === 'Escape') {
      event.preventDefault()
      closeDialog(root)
    } else if (event.key === 'Tab') trapTab(root, event)
  })
  // Back after opening in place closes the dialog; Forward opens it again.
  window.addEventListener('popstate', (event) => {
    const wanted = (event.state as { dialog?: string } | null)?.dialog
    const root = openDialog()
    if (wanted && !root) openFromTemplate(wanted, null)
    else if (!wanted && root) closeDialog(root, { fromHistory: true })
  })
}

enhanceForms()
enhancePasswordToggles()
enhanceViews()
enhanceDialogs()
document.documentElement.dataset.enhanced = 'true'
