/**
 * The metric label of a request: the React Router route that answers it (its id, e.g. `routes/export-detail`), so
 * `/exports/<uuid>` and every other id fold into one series. Matched against the build's route manifest here, in the
 * HTTP layer, without running the app.
 */
import { LRUCache } from 'lru-cache'
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

type Manifest = ServerBuild['routes']
const trees = new WeakMap<Manifest, RouteObject[]>()

function routeTree(manifest: Manifest): RouteObject[] {
  let tree = trees.get(manifest)
  if (tree) return tree
  const children = new Map<string | undefined, RouteObject[]>()
  for (const route of Object.values(manifest)) {
    if (!route) continue
    const object = (route.index ? { id: route.id, index: true, path: route.path } : { id: route.id, path: route.path, caseSensitive: route.caseSensitive }) as RouteObject
    const siblings = children.get(route.parentId) ?? []
    siblings.push(object)
    children.set(route.parentId, siblings)
  }
  const attach = (routes: RouteObject[]): RouteObject[] =>
    routes.map((route) => {
      const below = children.get(route.id)
      return below && !route.index ? ({ ...route, children: attach(below) } as RouteObject) : route
    })
  tree = attach(children.get(undefined) ?? [])
  trees.set(manifest, tree)
  return tree
}

/**
 * Labels of the paths seen lately, per manifest: matchRoutes flattens and ranks the whole tree on every call (≈ 0.6 ms
 * of CPU a request), and a label depends on the path alone. Bounded: paths carry ids.
 */
const labels = new WeakMap<Manifest, LRUCache<string, string>>()

/** The id of the deepest route matching `pathname` (single-fetch `.data` requests count as their page). */
export function routeLabel(build: Pick<ServerBuild, 'routes'>, pathname: string): string {
  let seen = labels.get(build.routes)
  if (!seen) {
    seen = new LRUCache<string, string>({ max: 2000 })
    labels.set(build.routes, seen)
  }
  let label = seen.get(pathname)
  if (label === undefined) {
    label = matchedRoute(build.routes, pathname)
    seen.set(pathname, label)
  }
  return label
}

function matchedRoute(manifest: Manifest, pathname: string): string {
  const page = pathname === '/_root.data' ? '/' : pathname.replace(/\.data$/, '')
  try {
    return matchRoutes(routeTree(manifest), page)?.at(-1)?.route.id ?? 'unmatched'
  } catch {
    // A path the router cannot read is the app's to refuse (400); its label must not turn it into a 500.
    return 'unmatched'
  }
}
