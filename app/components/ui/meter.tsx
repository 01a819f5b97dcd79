import { cn } from '#app/utils/misc.ts'

/** A labelled 0–100 bar (role="progressbar"): export progress and the credits gauge draw the same one. */
export function Meter({ percent, label, className, fillClassName }: { percent: number; label: string; className?: string; fillClassName?: string }) {
  return (
    <div
      className={cn('overflow-hidden rounded-full bg-slate-100', className)}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
      aria-label={label}
    >
      <div className={cn('h-full rounded-full bg-brand-600', fillClassName)} style={{ width: `${percent}%` }} />
    </div>
  )
}
