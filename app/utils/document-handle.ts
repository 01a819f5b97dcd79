/**
 * A route's `handle` may say its page needs no React: root.tsx then serves its HTML without React's scripts (no
 * hydration), with at most the page's own small script (`pageScript`, the URL of a module such as app/islands/*).
 * A client-side navigation to such a route, from a page already running React, renders it with React as any other.
 */
export interface DocumentHandle {
  scripts?: false
  pageScript?: string
}
