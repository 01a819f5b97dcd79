import { cn } from '#app/utils/misc.ts'
import { Spinner } from './spinner.tsx'

const variants = {
  primary: 'bg-brand-600 text-white shadow-sm hover:bg-brand-700 disabled:bg-brand-600/60',
  secondary: 'bg-white text-slate-700 ring-1 ring-inset ring-slate-300 shadow-sm hover:bg-slate-50 disabled:text-slate-400',
  ghost: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-red-600/60',
  link: 'text-brand-600 hover:text-brand-700 underline-offset-4 hover:underline px-0! py-0!',
} as const

const sizes = { sm: 'px-2.5 py-1.5 text-sm', md: 'px-3.5 py-2 text-sm', lg: 'px-4 py-2.5 text-base' } as const

export function buttonClasses({ variant = 'primary', size = 'md', className }: { variant?: keyof typeof variants; size?: keyof typeof sizes; className?: string } = {}) {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors disabled:cursor-not-allowed',
    variants[variant],
    sizes[size],
    className,
  )
}

export function Button({
  variant,
  size,
  pending = false,
  className,
  children,
  disabled,
  ...props
}: React.ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: keyof typeof variants
  size?: keyof typeof sizes
  pending?: boolean
}) {
  return (
    <button
      {...props}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      className={buttonClasses({ variant, size, className })}
    >
      {pending ? <Spinner className="size-4" /> : null}
      {children}
    </button>
  )
}
