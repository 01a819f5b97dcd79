import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { cn } from '#app/utils/misc.ts'
import { Logo } from '../logo.tsx'
import { BookDemoLink } from './book-demo-link.tsx'
import { Icon } from './icons.tsx'
import { SidebarNav } from './sidebar.tsx'

const DRAWER_ID = 'mobile-menu'

/**
 * Below 1024 px the sidebar is a slide-over drawer. Without JavaScript the menu button is a
 * link to #mobile-menu and CSS :target shows the drawer; with JavaScript it is a real dialog.
 */
export function MobileDrawer({ bookDemoUrl }: { bookDemoUrl: string }) {
  const { t } = useTranslation()
  const [mobileMenuOpen, setMobileMenuOpen] = useState(false)
  const location = useLocation()

  useEffect(() => setMobileMenuOpen(false), [location.pathname])
  useEffect(() => {
    if (!mobileMenuOpen) return
    const onKeyDown = (event: KeyboardEvent) => event.key === 'Escape' && setMobileMenuOpen(false)
    document.addEventListener('keydown', onKeyDown)
    document.getElementById(DRAWER_ID)?.querySelector<HTMLElement>('a[href]')?.focus()
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [mobileMenuOpen])

  return (
    <>
      <a
        href={`#${DRAWER_ID}`}
        onClick={(event) => {
          event.preventDefault()
          setMobileMenuOpen(true)
        }}
        aria-label={t('nav.openMenu')}
        aria-controls={DRAWER_ID}
        aria-expanded={mobileMenuOpen}
        className="-ml-1 rounded-lg p-2 text-slate-600 hover:bg-slate-100 lg:hidden"
      >
        <Icon name="menu" className="size-6" />
      </a>
      <div
        id={DRAWER_ID}
        className={cn('fixed inset-0 z-50 lg:hidden', mobileMenuOpen ? 'block' : 'hidden target:block')}
        role="dialog"
        aria-modal="true"
        aria-label={t('nav.mainMenu')}
      >
        <a
          href="#"
          onClick={(event) => {
            event.preventDefault()
            setMobileMenuOpen(false)
          }}
          tabIndex={-1}
          aria-hidden="true"
          className="absolute inset-0 bg-slate-900/50"
        />
        <div className="relative flex h-full w-72 max-w-[85vw] flex-col bg-white px-3 py-4 shadow-xl">
          <div className="mb-6 flex items-center justify-between px-2">
            <Logo />
            <a
              href="#"
              onClick={(event) => {
                event.preventDefault()
                setMobileMenuOpen(false)
              }}
              aria-label={t('nav.closeMenu')}
              className="rounded-lg p-2 text-slate-500 hover:bg-slate-100"
            >
              <Icon name="close" className="size-5" />
            </a>
          </div>
          <SidebarNav onNavigate={() => setMobileMenuOpen(false)} />
          {/* The header has no room for it on phones: it lives here below 768 px. */}
          <div className="mt-3 border-t border-slate-100 pt-3 md:hidden">
            <BookDemoLink href={bookDemoUrl} className="flex w-full justify-center py-2 text-brand-700 ring-1 ring-brand-200 ring-inset hover:bg-brand-50 hover:text-brand-800" />
          </div>
        </div>
      </div>
    </>
  )
}
