/**
 * Which paths a framework's guard protects: its `protect` option, a list of paths or a function of
 * the path, checked when the guard is made. One rule for every integration that takes such a list
 * (`authMiddleware` of SolidStart, `authorize` of SvelteKit).
 *
 * @module
 */

/** Whether `pathname` is `base` or below it (`/account`, `/account/keys`; not `/accounts`). */
export function isUnderPath(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`)
}

/** A guard's `protect` option: paths (each covering what is below it), or a function of the path. */
export type ProtectedPaths = readonly string[] | ((pathname: string) => boolean)

/**
 * The matcher for `protect`: `"/"` protects everything, any other path itself and what is below it
 * (compared without a trailing slash). Throws a `TypeError` naming `owner` for anything that is not
 * a list of paths (a query, a fragment or a space in one) or a function.
 */
export function protectedPaths(protect: unknown, owner: string): (pathname: string) => boolean {
  if (typeof protect === "function") return protect as (pathname: string) => boolean
  if (!Array.isArray(protect)) throw new TypeError(`${owner}: \`protect\` must be an array of paths or a function of the path.`)
  const paths = protect.map((path: unknown) => {
    if (typeof path !== "string" || !path.startsWith("/") || /[?#\s]/.test(path)) {
      throw new TypeError(`${owner}: each protected path must be a path such as "/account"; got ${JSON.stringify(path)}.`)
    }
    return path.replace(/\/+$/, "")
  })
  return (pathname) => paths.some((path) => path === "" || isUnderPath(pathname, path))
}

/**
 * The path as a framework's router reads it, for a guard to match: percent-decoded until it stops
 * changing (`/%64ashboard` and `/%2564ashboard` are `/dashboard`), duplicate slashes collapsed
 * (`//dashboard` is `/dashboard`). Null when it does not decode, or is still encoded after ten
 * rounds: a guard protects such a path rather than guess (Astro answers it `400`).
 *
 * A guard that matched the raw path would let `/%64ashboard` through to the page `/dashboard`.
 */
export function decodedPath(pathname: string): string | null {
  let path = pathname
  for (let round = 0; ; round++) {
    let decoded: string
    try {
      decoded = decodeURI(path)
    } catch {
      // A first decode that fails is a path the router refuses; a later one is as far as it decodes.
      if (round === 0) return null
      break
    }
    if (decoded === path) break
    if (round > 10) return null
    path = decoded
  }
  return path.replace(/\/{2,}/g, "/")
}

/** A path's letters as a case-insensitive router compares them: upper case, then lower case (`µ` and `μ` alike). */
export function foldedPath(path: string): string {
  return path.toUpperCase().toLowerCase()
}

/** `path` with each segment decoded once by `decodeURIComponent`, an encoded `/` kept; as it is when a segment does not decode. */
function segmentsDecoded(path: string): string {
  try {
    return path
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/")
  } catch {
    return path
  }
}

/**
 * Every form of `pathname` a router may route to a page, for a guard to check them all: decoded as
 * {@link decodedPath} does and as routers that decode each segment do (`/%40admin` is `/@admin`),
 * doubled slashes collapsed, without a trailing slash (`/settings/` is `/settings`), and, for a
 * router that ignores case (React Router's and Vue Router's defaults), lowercase and
 * {@link foldedPath}. Null when the path does not decode: a guard protects it.
 */
export function routedForms(pathname: string, ignoresCase: boolean): string[] | null {
  const decoded = decodedPath(pathname)
  if (decoded === null) return null
  const forms = new Set<string>()
  for (const form of [decoded, segmentsDecoded(pathname).replace(/\/{2,}/g, "/")]) {
    const path = form.replace(/(.)\/+$/, "$1")
    forms.add(path)
    if (ignoresCase) {
      forms.add(path.toLowerCase())
      forms.add(foldedPath(path))
    }
  }
  return [...forms]
}
