import type { Route } from './+types/api.v1.$'
import { handleApiRequest } from '#app/.server/api-v1/dispatch.ts'

/** The public API (../shared/API.md): every method of every /api/v1 path, dispatched to its operation. */
export function loader({ request, context }: Route.LoaderArgs) {
  return handleApiRequest(request, context)
}

export function action({ request, context }: Route.ActionArgs) {
  return handleApiRequest(request, context)
}
