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
  layout('routes/app-layout.tsx', [
    index('routes/search.tsx', { id: 'search' }),
    route('search', 'routes/search.tsx', { id: 'search-alias' }),
    route('exports', 'routes/exports.tsx'),
    route('subscription', 'routes/subscription.tsx'),
    route('settings', 'routes/settings.tsx'),
  ]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
