import { data, redirect } from 'react-router'
import type { Route } from './+types/preferences'
import { localeCookie } from '#app/.server/i18n.ts'
import { sidebarCookie } from '#app/.server/preferences.ts'
import { requireUser } from '#app/.server/auth.ts'
import { workspaceCookie } from '#app/.server/workspaces/current.ts'
import { isLanguage } from '#app/i18n.ts'
import { safeRedirectPath } from '#app/utils/redirect.ts'

/** Language and sidebar preferences: plain form posts, so both work without JavaScript. */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const redirectTo = safeRedirectPath(formData.get('redirectTo'))
  switch (formData.get('intent')) {
    case 'language': {
      const language = formData.get('language')
      if (!isLanguage(language)) return data({ error: 'Unsupported language' }, { status: 400 })
      return redirect(redirectTo, { headers: { 'Set-Cookie': await localeCookie.serialize(language) } })
    }
    case 'sidebar': {
      const collapsed = formData.get('collapsed') === '1'
      const headers = { 'Set-Cookie': await sidebarCookie.serialize(collapsed ? '1' : '0') }
      // fetcher submissions want data; plain form posts get sent back where they came from.
      if (formData.get('fetcher') === '1') return data({ collapsed }, { headers })
      return redirect(redirectTo, { headers })
    }
    case 'workspace': {
      // Only a workspace the user belongs to (the session resolves it again on every request, as does RLS).
      const user = await requireUser(context, request)
      const wanted = formData.get('workspaceId')
      if (!user.workspaces.some((workspace) => workspace.id === wanted)) return data({ error: 'Unknown workspace' }, { status: 400 })
      return redirect(redirectTo, { headers: { 'Set-Cookie': await workspaceCookie.serialize(wanted) } })
    }
    default:
      return data({ error: 'Unknown intent' }, { status: 400 })
  }
}

export async function loader() {
  return redirect('/')
}
