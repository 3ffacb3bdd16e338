import type { ServerLoad } from "@sveltejs/kit"

// A page the app lets shared caches keep for a day; the root layout reads the session on it.
export const load: ServerLoad = ({ setHeaders }) => {
  setHeaders({ "cache-control": "public, max-age=86400" })
}
