import { useEffect, useRef } from 'react'
import { useNavigation, useRevalidator } from 'react-router'

const INTERVAL_MS = 2000

/**
 * While something is processing: with JavaScript, revalidate the loaders every 2 s; without it,
 * the meta refresh (rendered by the server) reloads the page.
 */
export function AutoRefresh({ active, noJsSeconds = 5 }: { active: boolean; noJsSeconds?: number }) {
  const revalidator = useRevalidator()
  // Never revalidate while the user is going somewhere: a revalidation started during a pending navigation (opening an
  // export from the list while the list refreshes itself) could win the race and show this page again. Read through a
  // ref so the interval sees the current state without being restarted on every navigation change.
  const navigation = useNavigation()
  const navigating = useRef(false)
  navigating.current = navigation.state !== 'idle'
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && revalidator.state === 'idle' && !navigating.current) void revalidator.revalidate()
    }, INTERVAL_MS)
    return () => clearInterval(timer)
  }, [active, revalidator])
  if (!active) return null
  // Raw markup: with JavaScript on, browsers treat <noscript> content as text, so only no-JS
  // visitors get the refresh (a React <meta> would be hoisted into <head> for everyone).
  return <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="${Math.max(1, Math.floor(noJsSeconds))}">` }} />
}
