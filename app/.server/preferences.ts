import { createCookie } from 'react-router'

// Remembered server-side so the first paint already has the right sidebar width.
export const sidebarCookie = createCookie('sidebar_collapsed', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
})

export async function readSidebarCollapsed(request: Request): Promise<boolean> {
  const value = await sidebarCookie.parse(request.headers.get('Cookie'))
  return value === true || value === '1'
}
