import type { CreditsSummary } from '#app/domain/plans.ts'
import { Logo } from '../logo.tsx'
import { BookDemoLink } from './book-demo-link.tsx'
import { CreditsMenu } from './credits-menu.tsx'
import { LanguageSwitcher } from './language-switcher.tsx'
import { MobileDrawer } from './mobile-drawer.tsx'
import { NotificationBell } from './notification-bell.tsx'
import { WorkspaceSwitcher, type SwitcherWorkspace } from './workspace-switcher.tsx'

/**
 * The page's own h1 names the page, so the header does not repeat it: below 1024 px, where the sidebar
 * is hidden, it carries the brand instead. "Book a demo" moves into the drawer below 768 px.
 */
export function Header({ credits, bookDemoUrl, unread, workspaces, workspaceId }: { credits: CreditsSummary; bookDemoUrl: string; unread: number; workspaces: SwitcherWorkspace[]; workspaceId: string }) {
  return (
    <header className="sticky top-0 z-20 flex h-16 items-center gap-2 border-b border-slate-200 bg-white px-4 sm:gap-3 sm:px-6 lg:px-8">
      <MobileDrawer bookDemoUrl={bookDemoUrl} />
      <div className="min-w-0 flex-1">
        <Logo className="w-fit lg:hidden" wordmarkClassName="max-[400px]:sr-only" />
      </div>
      <WorkspaceSwitcher workspaces={workspaces} currentId={workspaceId} />
      <BookDemoLink href={bookDemoUrl} className="hidden md:flex" />
      <LanguageSwitcher />
      <NotificationBell unread={unread} />
      <CreditsMenu credits={credits} />
    </header>
  )
}
