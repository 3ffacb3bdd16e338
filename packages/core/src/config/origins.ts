/**
 * Which origins the app is reachable at, decided once per configuration.
 *
 * - **Trusted origins** (`trustedOrigins`, `AUTH_TRUSTED_ORIGINS`): origins other than the app's own
 *   that the app vouches for: the deployments a redirect proxy may forward OAuth callbacks to, and
 *   the pages that may post to the endpoints. A pattern is `scheme://host[:port]`, where `*` stands
 *   for one or more letters, digits or hyphens inside one DNS label (never a dot), so
 *   `https://*.preview.example.com` matches `https://pr-12.preview.example.com` but not
 *   `https://a.b.preview.example.com`. A wildcard label right under a domain where anyone can deploy
 *   (`https://*.vercel.app`, `https://myapp-*.vercel.app`) would trust other people's deployments
 *   too: it is accepted, with a warning; give previews a domain of your own instead.
 * - **Loopback hosts**: `localhost`, `*.localhost`, `127.0.0.0/8` and `[::1]`. They get the
 *   development defaults (a trusted `Host`, a generated secret) when the app configures neither a
 *   public URL nor `trustHost`, because a request for them can only come from this machine's own
 *   browser; every other host is refused then, production or not.
 *
 * @module
 */

/** Hosting domains where anyone can deploy: a wildcard directly under them trusts strangers. */
const sharedHostingDomains: readonly string[] = [
  "vercel.app",
  "netlify.app",
  "pages.dev",
  "workers.dev",
  "herokuapp.com",
  "onrender.com",
  "fly.dev",
  "github.io",
  "web.app",
  "firebaseapp.com",
  "azurewebsites.net",
  "amplifyapp.com",
  "up.railway.app",
]

/**
 * Two-label public suffixes under which a name like `*.co.uk` would still be anybody's domain. Not
 * the whole Public Suffix List: the common country second levels, so that the obvious mistake is
 * caught; a wildcard must name a registrable domain of the app's own after it.
 */
const publicSuffixes: readonly string[] = [
  "co.uk", "org.uk", "ac.uk", "gov.uk", "com.au", "net.au", "org.au", "co.nz", "co.jp", "ne.jp", "or.jp",
  "com.br", "com.cn", "com.mx", "co.in", "co.za", "com.tr", "com.sg", "com.hk", "co.kr",
]

export interface TrustedOrigins {
  /** The patterns as configured, for messages. */
  readonly patterns: readonly string[]
  /** Whether `origin` (as `URL.origin` prints it) matches one of the patterns. */
  matches(origin: string): boolean
  /** Patterns whose wildcard label sits directly under a shared hosting domain. */
  readonly shared: readonly string[]
}

const patternShape = /^(https?):\/\/([a-z0-9*.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/

/** Why `pattern` is not an origin pattern, or null when it is one. */
function patternProblem(pattern: string): string | null {
  const match = patternShape.exec(pattern)
  if (!match) return 'must be an origin such as "https://example.com" or "https://*.preview.example.com" (no path, no trailing slash)'
  const host = match[2]!
  if (!pattern.includes("*") && new URL(pattern).origin !== pattern) {
    return `is not written as browsers send an origin (${new URL(pattern).origin}): no browser request could match it`
  }
  if (host.startsWith("[")) return null
  const labels = host.split(".")
  if (labels.some((label) => label === "")) return "has an empty DNS label"
  const wild = labels.filter((label) => label.includes("*"))
  if (wild.length > 1 || (wild.length === 1 && (wild[0]!.match(/\*/g) ?? []).length > 1)) return "has more than one wildcard"
  const below = labels.slice(labels.findIndex((label) => label.includes("*")) + 1)
  if (wild.length === 1 && (below.length < 2 || publicSuffixes.includes(below.join(".")))) {
    return "puts a wildcard too close to the top-level domain; name at least a registrable domain after it"
  }
  return null
}

function patternRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[a-z0-9-]+")
  return new RegExp(`^${escaped}$`)
}

/**
 * Parses the trusted-origin patterns. Returns the problem of the first bad one as a string (the
 * caller turns it into a configuration error) or the matcher.
 */
export function trustedOrigins(input: unknown): TrustedOrigins | string {
  if (input === undefined) input = []
  if (!Array.isArray(input)) return "`trustedOrigins` must be an array of origin patterns."
  const patterns: string[] = []
  for (const entry of input) {
    if (typeof entry !== "string") return `\`trustedOrigins\` must hold strings; got ${JSON.stringify(entry)}.`
    const pattern = entry.trim().toLowerCase()
    const problem = patternProblem(pattern)
    if (problem) return `\`trustedOrigins\` entry ${JSON.stringify(entry)} ${problem}.`
    patterns.push(pattern)
  }
  const exact = new Set(patterns.filter((p) => !p.includes("*")))
  const wild = patterns.filter((p) => p.includes("*")).map(patternRegExp)
  const shared = patterns.filter((p) => {
    const labels = patternShape.exec(p)![2]!.split(".")
    const wildLabel = labels.findIndex((label) => label.includes("*"))
    return wildLabel !== -1 && sharedHostingDomains.includes(labels.slice(wildLabel + 1).join("."))
  })
  return Object.freeze({
    patterns: Object.freeze(patterns),
    shared: Object.freeze(shared),
    matches: (origin: string) => exact.has(origin) || wild.some((re) => re.test(origin)),
  })
}

/** Whether `hostname` (as `URL.hostname` prints it) names this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  if (host === "localhost" || host.endsWith(".localhost")) return true
  if (host === "[::1]") return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}
