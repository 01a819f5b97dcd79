import { type RouteConfig, index, layout, route } from '@react-router/dev/routes'

export default [
  route('login', 'routes/login.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('reset-password', 'routes/reset-password.tsx'),
  route('preferences', 'routes/preferences.ts'),
  route('dev/outbox', 'routes/dev.outbox.tsx'),
  route('api/categories', 'routes/api.categories.ts'),
  route('api/locations', 'routes/api.locations.ts'),
  route('api/search/preview', 'routes/api.search.preview.ts'),
  route('api/exports/queue', 'routes/api.exports.queue.ts'),
  route('api/exports/resume', 'routes/api.exports.resume.ts'),
  route('api/exports/:id/add-enrichment', 'routes/api.exports.add-enrichment.ts'),
  route('api/exports/:id/download', 'routes/api.exports.$id.download.ts'),
  route('api/exports/:id', 'routes/api.exports.$id.ts'),
  layout('routes/app-layout.tsx', [
    index('routes/search.tsx', { id: 'search' }),
    route('search', 'routes/search.tsx', { id: 'search-alias' }),
    route('exports', 'routes/exports.tsx'),
    route('exports/:id', 'routes/export-detail.tsx'),
    route('subscription', 'routes/subscription.tsx'),
    route('settings', 'routes/settings.tsx'),
  ]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
