import { cn } from '#app/utils/misc.ts'

/**
 * A code sample that scrolls sideways inside itself, never the page (375 px phones). It is a focusable,
 * labelled region so keyboard users can scroll it too (axe: scrollable-region-focusable).
 */
export function CodeBlock({ code, label, className }: { code: string; label: string; className?: string }) {
  return (
    <pre
      tabIndex={0}
      role="region"
      aria-label={label}
      className={cn('max-w-full overflow-x-auto rounded-xl bg-slate-900 p-4 font-mono text-[0.8125rem] leading-6 text-slate-100 shadow-inner', className)}
    >
      <code>{code}</code>
    </pre>
  )
}
