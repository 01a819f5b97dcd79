import { cn } from '#app/utils/misc.ts'

/** Figures side by side, each a label over its value: the cost panel's, a list's match. */
export function StatGrid({ stats, tone = 'white', className }: { stats: ReadonlyArray<{ label: string; value: string; testId: string }>; tone?: 'white' | 'slate'; className?: string }) {
  return (
    <dl className={cn('grid grid-cols-2 gap-3', className)}>
      {stats.map(({ label, value, testId }) => (
        <div key={testId} className={cn('rounded-lg px-3 py-2 ring-1 ring-slate-200', tone === 'white' ? 'bg-white' : 'bg-slate-50')}>
          <dt className="text-xs font-medium text-slate-500">{label}</dt>
          <dd className="mt-0.5 text-lg font-semibold text-slate-900 tabular-nums" data-testid={testId}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  )
}
