/**
 * The paths of a request as React Router routes them, for the guard and for the way back after
 * signing in.
 *
 * Policy:
 * 1. A client-side navigation fetches its loaders' data from `<path>.data` (`/_root.data` for `/`,
 *    `<path>/_.data` for a trailing slash with `v8_trailingSlashAwareDataRequests`), and an action
 *    posts to it; with `v8_passThroughRequests` the loaders and middleware see that URL as it is.
 *    The page is the path without the suffix, and the `_routes` parameter is React Router's own.
 * 2. A guard checks every form of the path React Router may route to a page, and protects it when
 *    any form is protected: React Router decodes each segment with `decodeURIComponent`
 *    (`/%40admin` is `/@admin`, an encoded `/` stays `%2F`), and the core's `decodedPath` decodes
 *    until nothing changes and collapses doubled slashes (`/%2564ashboard` is `/dashboard`); a
 *    trailing slash does not count (`/settings/` is `/settings`). A path that does not decode is
 *    protected.
 * 3. Routes are not case-sensitive unless they say so: React Router compares letters as their
 *    upper case does, so each form is also compared folded (upper case, then lower case:
 *    `/DASHBOARD`, and `/\u00B5ενού` for `/μενού`). The `protect` list is folded the same way.
 * 4. With React Router's `basename`, the guard is given it: it is stripped (in any case) before the
 *    paths are compared, so that `protect` names paths as the app's routes do.
 *
 * @module
 */
import { foldedPath, routedForms } from "@sesame/core/integration"

/** The page a request is for (policy 1): `/dashboard.data` is `/dashboard`, `/_root.data` is `/`. */
function pagePathname(pathname: string): string {
  if (pathname.endsWith("/_root.data")) return pathname.slice(0, -"_root.data".length) || "/"
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length)
  if (pathname.endsWith(".data")) return pathname.slice(0, -".data".length)
  return pathname
}

/** The page and query a request is for, without React Router's data suffix and `_routes` (policy 1): where a visitor comes back to. */
export function pageOf(request: Request): string {
  const url = new URL(request.url)
  url.searchParams.delete("_routes")
  return `${pagePathname(url.pathname)}${url.search}`
}

/** `path` below `basename` (policy 4), in any case; as it is when it is not below it. */
export function belowBasename(path: string, basename: string | undefined): string {
  if (!basename || basename === "/") return path
  const base = foldedPath(basename.replace(/\/+$/, ""))
  const start = foldedPath(path.slice(0, base.length))
  if (start !== base || (path.length > base.length && path[base.length] !== "/")) return path
  return path.slice(base.length) || "/"
}

/**
 * The forms of the request's path a guard must check (policy 2 to 4), each as routed and folded, or
 * null when one does not decode (protected).
 */
export function guardedForms(request: Request, basename?: string): string[] | null {
  const { pathname } = new URL(request.url)
  const forms = new Set<string>()
  for (const raw of [pathname, pagePathname(pathname)]) {
    const routed = routedForms(raw, true)
    if (routed === null) return null
    for (const form of routed) {
      const path = belowBasename(form, basename)
      forms.add(path)
      forms.add(foldedPath(path))
    }
  }
  return [...forms]
}
