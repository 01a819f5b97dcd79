import { useEffect, useRef } from 'react'

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select, textarea, [tabindex]:not([tabindex="-1"])'

/**
 * While `enabled`, keeps keyboard focus inside the panel (Tab wraps around) and calls `onClose` on
 * Escape; on the way out, focus goes back to `returnFocusTo` (the opener) or to what had it before. JavaScript only: without it the
 * dialog is ordinary page markup.
 */
export function useFocusTrap(
  panelRef: React.RefObject<HTMLElement | null>,
  { enabled, onClose, returnFocusTo }: { enabled: boolean; onClose?: () => void; returnFocusTo?: () => HTMLElement | null },
) {
  // The latest onClose, read on Escape: an inline callback in the deps would re-run the effect on every render,
  // sending focus to the opener and back to the first field each time.
  const onCloseRef = useRef(onClose)
  onCloseRef.current = onClose
  useEffect(() => {
    const panel = panelRef.current
    if (!panel || !enabled) return
    const previouslyFocused = document.activeElement as HTMLElement | null
    const focusable = () => Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE))
    if (!panel.contains(document.activeElement)) {
      const autofocus = panel.querySelector<HTMLElement>('[autofocus]') ?? focusable()[0]
      autofocus?.focus()
    }
    function onKeyDown(event: KeyboardEvent) {
      // An inner control that handled Escape itself (a combobox's list) keeps the dialog open.
      if (event.key === 'Escape' && !event.defaultPrevented && onCloseRef.current) {
        event.preventDefault()
        onCloseRef.current()
        return
      }
      if (event.key !== 'Tab') return
      const items = focusable()
      if (!items.length) return
      const first = items[0]!
      const last = items[items.length - 1]!
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault()
        first.focus()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      const target = returnFocusTo ? returnFocusTo() : previouslyFocused
      if (target && document.contains(target) && !target.closest('[inert]')) target.focus()
      // Nowhere to go back to yet: at least leave the dialog, so no key reaches its form.
      else if (panel.contains(document.activeElement)) (document.activeElement as HTMLElement).blur()
    }
  }, [panelRef, enabled, returnFocusTo])
}

/**
 * Where focus goes back to when a dialog closes: its opener, or, when the page re-rendered that element meanwhile (the
 * search page does, before its lazily loaded dialog first renders), the link that opens the dialog's URL `openedAt`.
 */
export function findOpener(opener: HTMLElement | null, openedAt?: string) {
  if (opener?.isConnected && !opener.closest('[inert], [role="dialog"]')) return opener
  const targets = new Set([opener?.getAttribute('href'), openedAt].filter(Boolean).map((href) => normalize(href!)))
  return (
    Array.from(document.querySelectorAll<HTMLAnchorElement>('a[href]')).find(
      (link) => targets.has(normalize(link.getAttribute('href')!)) && !link.closest('[inert], [role="dialog"]'),
    ) ?? null
  )
}

function normalize(href: string) {
  const url = new URL(href, window.location.href)
  url.searchParams.sort()
  return url.pathname + url.search
}
