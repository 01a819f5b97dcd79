import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { cn } from '#app/utils/misc.ts'

/**
 * A dropdown built on <details>: it opens and closes without JavaScript, and is keyboard
 * operable by default. With JavaScript it also closes on Escape, outside clicks and navigation.
 */
export function Disclosure({
  label,
  children,
  buttonClassName,
  panelClassName,
  className,
}: {
  label: React.ReactNode
  children: React.ReactNode
  buttonClassName?: string
  panelClassName?: string
  className?: string
}) {
  const ref = useRef<HTMLDetailsElement>(null)
  const location = useLocation()
  // Closes on navigation only: on the first run (hydration) a menu the user opened before the scripts arrived
  // stays open.
  const shownAt = useRef(location.key)
  useEffect(() => {
    if (shownAt.current === location.key) return
    shownAt.current = location.key
    if (ref.current) ref.current.open = false
  }, [location.key])
  useEffect(() => {
    function onPointerDown(event: PointerEvent) {
      if (ref.current?.open && !ref.current.contains(event.target as Node)) ref.current.open = false
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape' && ref.current?.open) {
        ref.current.open = false
        ref.current.querySelector('summary')?.focus()
      }
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [])
  return (
    <details ref={ref} className={cn('relative', className)}>
      <summary className={cn('cursor-pointer list-none [&::-webkit-details-marker]:hidden', buttonClassName)}>{label}</summary>
      <div className={panelClassName}>{children}</div>
    </details>
  )
}

/**
 * Placement for a menu opened from a row of page actions (left-aligned under the title below `lg`, right-aligned
 * beside it from `lg`), so the panel never leaves the viewport, with or without JavaScript:
 * - below `sm` the <details> is static, so the panel spans the whole row (the row must be `relative`), just under
 *   the button: nothing depends on where the button wrapped to;
 * - from `sm` it hangs from the button's left edge, and from `lg` from its right edge.
 */
export const rowMenu = {
  details: 'max-sm:static',
  panel:
    'absolute inset-x-0 z-30 mt-2 rounded-xl bg-white p-1.5 shadow-lg ring-1 ring-slate-900/10 sm:right-auto sm:w-64 lg:right-0 lg:left-auto',
}
