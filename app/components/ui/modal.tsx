import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { cn } from '#app/utils/misc.ts'
import { buttonClasses } from './button.tsx'
import { findOpener, useFocusTrap } from './use-focus-trap.ts'

/**
 * A dialog rendered in the page markup, so it also exists without JavaScript (modals are
 * reachable by URL and render open server-side). With JavaScript it traps focus and closes on Escape: `onClose`
 * for a dialog opened in place, else a navigation to `closeHref` (the ✕ link's target).
 */
export function Modal({
  title,
  description,
  children,
  onClose,
  closeHref,
  closeControl,
  size = 'md',
  className,
  inert = false,
  variant = 'overlay',
  dataAttributes,
}: {
  title: React.ReactNode
  description?: React.ReactNode
  children: React.ReactNode
  /** Called on Escape (JS only). */
  onClose?: () => void
  /** The page without the dialog: the ✕ links there and Escape navigates there. */
  closeHref?: string
  /** The visible close button when it is not the ✕ link to `closeHref` (a link or a button, so it works with and without JS). */
  closeControl?: React.ReactNode
  size?: 'sm' | 'md' | 'lg'
  className?: string
  /** A dialog underneath a nested one: hidden from focus and assistive tech until the top one closes. */
  inert?: boolean
  /** 'page': the dialog is the page's own content (e.g. /login), shown in flow without a backdrop. */
  variant?: 'overlay' | 'page'
  /** `data-*` hooks on the dialog's outermost element, read by a page script. */
  dataAttributes?: { id?: string } & Record<`data-${string}`, string | undefined>
}) {
  const titleId = useId()
  const descriptionId = useId()
  const panelRef = useRef<HTMLElement>(null)
  const { close, closing } = useClose(onClose, closeHref)
  const returnFocusTo = useOpener()
  useFocusTrap(panelRef, { enabled: !inert && !closing && variant !== 'page', onClose: close, returnFocusTo })
  const control = closeControl ?? (closeHref ? <ModalCloseLink to={closeHref} /> : null)

  const panelClasses = cn(
    'animate-fade-in relative w-full rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-900/5 sm:p-8',
    size === 'sm' && 'max-w-sm',
    size === 'md' && 'max-w-md',
    size === 'lg' && 'max-w-2xl',
    className,
  )
  const content = (
    <ModalContent titleId={titleId} descriptionId={descriptionId} title={title} description={description} closeControl={control}>
      {children}
    </ModalContent>
  )

  if (variant === 'page') {
    return (
      <section ref={panelRef} aria-labelledby={titleId} className={cn(panelClasses, 'mx-auto shadow-lg')} inert={inert || undefined} {...dataAttributes}>
        {content}
      </section>
    )
  }

  return (
    <div className="fixed inset-0 z-50 overflow-y-auto" inert={inert || closing || undefined} hidden={closing || undefined} {...dataAttributes}>
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
      <div className="relative flex min-h-full items-end justify-center p-4 sm:items-center sm:p-6">
        <div
          ref={panelRef as React.RefObject<HTMLDivElement>}
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          aria-describedby={description ? descriptionId : undefined}
          className={panelClasses}
        >
          {content}
        </div>
      </div>
    </div>
  )
}

function useClose(onClose: (() => void) | undefined, closeHref: string | undefined) {
  const navigate = useNavigate()
  const location = useLocation()
  // The location Escape closed the dialog at. The dialog stays mounted until the navigation to closeHref ends (its
  // loader runs first): meanwhile it is hidden and inert, so focus is back on the opener and an Enter cannot submit
  // the form still in the DOM (it did: Escape then Enter started an export). Any later navigation shows it again.
  const [closedAt, setClosedAt] = useState<string | null>(null)
  const closing = closedAt !== null && closedAt === location.key
  const close =
    onClose ??
    (closeHref
      ? () => {
          setClosedAt(location.key)
          void navigate(closeHref, { replace: true, preventScrollReset: true })
        }
      : undefined)
  return { close, closing }
}

function useOpener() {
  // What had focus when the dialog first rendered (read before an autofocused field takes it; an effect would see
  // that field), and the URL that opened it. Focus goes back there on Escape, or once the dialog is gone if the
  // opener was inert meanwhile (the sign-in form under "Forgot your password?").
  const location = useLocation()
  const [opened] = useState(() => ({
    // No focus on the server; none either when the opener was re-rendered away (<body> has it): findOpener then looks
    // for the link to the dialog's URL.
    element: typeof document === 'undefined' || document.activeElement === document.body ? null : (document.activeElement as HTMLElement | null),
    at: location.pathname + location.search,
  }))
  const [returnFocusTo] = useState(() => () => findOpener(opened.element, opened.at))
  useEffect(
    () => () => {
      // After the commit that removed the dialog (and the inert attribute of what was under it), if focus was lost.
      setTimeout(() => {
        const target = returnFocusTo()
        const active = document.activeElement
        if (target && (!active || active === document.body || !active.isConnected)) target.focus()
      })
    },
    [returnFocusTo],
  )
  return returnFocusTo
}

function ModalContent({
  titleId,
  descriptionId,
  title,
  description,
  closeControl,
  children,
}: {
  titleId: string
  descriptionId: string
  title: React.ReactNode
  description?: React.ReactNode
  closeControl?: React.ReactNode
  children: React.ReactNode
}) {
  return (
    <>
      {closeControl ? <div className="absolute top-4 right-4">{closeControl}</div> : null}
      <h2 id={titleId} className="pr-8 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {description ? (
        <p id={descriptionId} className="mt-1 text-sm text-slate-600">
          {description}
        </p>
      ) : null}
      <div className="mt-6">{children}</div>
    </>
  )
}

function CloseIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.8" className="size-5" aria-hidden="true">
      <path d="M5 5l10 10M15 5 5 15" />
    </svg>
  )
}

/** The dialog's ✕: a link back to the page without the dialog (a modal opened by URL closes by URL, with or without JS). */
function ModalCloseLink({ to }: { to: string }) {
  const { t } = useTranslation()
  return (
    <Link to={to} replace preventScrollReset data-dialog-close className="inline-flex rounded-md p-1 text-slate-400 hover:text-slate-600" aria-label={t('common.close')}>
      <CloseIcon />
    </Link>
  )
}

/** The dialog's Cancel button: the same way out as the ✕. */
export function ModalCancelLink({ to }: { to: string }) {
  const { t } = useTranslation()
  return (
    <Link to={to} replace preventScrollReset data-dialog-close className={buttonClasses({ variant: 'secondary' })}>
      {t('common.cancel')}
    </Link>
  )
}
