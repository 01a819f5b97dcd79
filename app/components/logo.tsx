import { Link } from 'react-router'
import { cn } from '#app/utils/misc.ts'

export function Logo({ collapsed = false, className, wordmarkClassName }: { collapsed?: boolean; className?: string; wordmarkClassName?: string }) {
  return (
    <Link to="/" className={cn('flex items-center gap-2.5 rounded-md font-semibold text-slate-900', className)}>
      <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#3b55e6" />
        <path d="M9 22 16 8l7 14h-4.2L16 15.8 13.2 22z" fill="#fff" />
      </svg>
      <span className={cn('text-lg tracking-tight', collapsed && 'sr-only', wordmarkClassName)}>LeadAtlas</span>
    </Link>
  )
}
