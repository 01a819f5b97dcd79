/** A route's `handle` may say its page needs no script: root.tsx then serves its HTML without any (no hydration). */
export interface DocumentHandle {
  scripts?: false
}
