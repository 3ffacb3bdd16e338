/**
 * Every case the comparison can run, in the order of its tables, with what each really does. A
 * case id is `<kind>/<contender>/<scenario>`; `--only` keeps the ids that contain one of its words.
 */

export const contenders = {
  floor: { name: "floor", module: "floor" },
  sesame: { name: "Sesame, `Auth()`", module: "sesame" },
  "sesame-before": { name: "Sesame (before), `Auth()`", module: "sesame", before: true },
  "sesame-node": { name: "Sesame, `toNodeHandler`", module: "sesame", node: true },
  "sesame-node-before": { name: "Sesame (before), `toNodeHandler`", module: "sesame", node: true, before: true },
  authjs: { name: "@auth/core", module: "authjs" },
  "better-auth": { name: "better-auth", module: "better-auth" },
}

const floors = {
  envelope: "web Request in, JSON Response out, body read; no auth",
  decrypt: "decrypting Sesame's JWT cookie with `node:crypto` (A256CBC-HS512, key derived once); no Request",
  "decrypt+reencrypt": "the same, then a renewed token encrypted (fresh IV), as a sliding re-issue does",
  "envelope+decrypt": "envelope + the cookie found in the header and decrypted, the answer built from its claims",
  "envelope+decrypt-browser": "the same, with the browser's cookie set",
  "envelope+adapter-read": "envelope + one `getSessionAndUser` of Sesame's MemoryAdapter (no token hashing)",
  plain: "node:http answering JSON; no web Request/Response, no auth",
  bridge: "node:http → web Request → JSON Response → node response; no auth",
}

const does = {
  sesame: {
    jwt: "the JWE's claims (decrypted on its first read, then kept for the same cookie), the `jwt` and `session` callbacks; re-encrypts only once `updateAge` has passed",
    "jwt-cold": "the same, but every request brings a token not read before (2,000 in turn, more than are kept): each one decrypted",
    "jwt-browser": "the same, the session cookie among the browser's cookies",
    "jwt-revocable": "`jwt` with `session.revocation` on (default cache, 30 s) and the MemoryAdapter's store: the user's \"sessions valid after\" time read from the cache",
    "jwt-revocable-0": "the same with `revocation: { cache: 0 }`: the time read from the store (MemoryAdapter) on every request",
    database: "SHA-256 of the cookie's token, `getSessionAndUser` (MemoryAdapter), callbacks; writes only once `updateAge` has passed",
    "no-cookie": "no session cookie: answers `null` without crypto",
    "jwt-limited": "`jwt` with rate limits on (`rateLimit: { enabled: true }`, the memory store): the client's address from `X-Forwarded-For` (`trustHost`), its `session` family's counter incremented on every request (a limit it never reaches)",
  },
  authjs: {
    jwt: "decrypts the JWE (jose), runs its callbacks, re-encrypts and sets the session cookie on every read; sets new CSRF and callback-URL cookies when the request has none, as here",
    "jwt-browser": "the same, but the browser's CSRF and callback-URL cookies spare it making new ones",
    database: "`getSessionAndUser` on Sesame's MemoryAdapter (raw token, Auth.js's contract), callbacks, the session cookie set again; new CSRF and callback-URL cookies",
    "no-cookie": "no session cookie: answers `null`; sets new CSRF and callback-URL cookies",
  },
  "better-auth": {
    jwt: "stateless mode: HMAC check of `session_token`, HKDF + JWE decryption (jose) of the `session_data` cookie cache, schema validation",
    "jwt-browser": "the same, its two cookies among the browser's cookies",
    database: "HMAC check of `session_token`, session and user from its memory adapter; no write within `updateAge`",
    "no-cookie": "no session cookie: answers `null`",
  },
}
does["sesame-before"] = does.sesame
does["sesame-node"] = {
  jwt: "`http.createServer(toNodeHandler(config))`: the JWT read straight on node:http, no web Request/Response",
  database: "`toNodeHandler`: the database read straight on node:http",
}
does["sesame-node-before"] = does["sesame-node"]

const scenarios = ["jwt", "jwt-browser", "database", "no-cookie"]
/** Sesame only: what its JWT read costs when the cookie was not read before, with `session.revocation`, and with rate limits. */
const sesameOnly = ["jwt-cold", "jwt-revocable", "jwt-revocable-0", "jwt-limited"]
const httpScenarios = ["jwt", "database"]

function entry(kind, contender, scenario) {
  const text = contender === "floor" ? floors[scenario] : does[contender][scenario]
  return { id: `${kind}/${contender}/${scenario}`, kind, contender, scenario, does: text }
}

/** The cases of a run: with `before`, Sesame's cases also run from that checkout. */
export function catalogue({ before = false } = {}) {
  const libraries = ["sesame", ...(before ? ["sesame-before"] : []), "authjs", "better-auth"]
  const inProcess = [
    ...["envelope", "decrypt", "decrypt+reencrypt", "envelope+decrypt", "envelope+decrypt-browser", "envelope+adapter-read"].map((s) => entry("inproc", "floor", s)),
    ...scenarios.flatMap((s) => libraries.map((c) => entry("inproc", c, s))),
    ...sesameOnly.flatMap((s) => libraries.filter((c) => c.startsWith("sesame")).map((c) => entry("inproc", c, s))),
  ]
  const httpLibraries = ["sesame", ...(before ? ["sesame-before"] : []), "sesame-node", ...(before ? ["sesame-node-before"] : []), "authjs", "better-auth"]
  const http = [entry("http", "floor", "plain"), entry("http", "floor", "bridge"), ...httpScenarios.flatMap((s) => httpLibraries.map((c) => entry("http", c, s)))]
  return [...inProcess, ...http]
}

/** Keeps the cases whose id contains one of the comma-separated words of `only`. */
export function select(cases, only) {
  if (!only) return cases
  const words = only.split(",").map((w) => w.trim()).filter(Boolean)
  return cases.filter((c) => words.some((w) => c.id.includes(w)))
}

/**
 * What a case process serves or calls: `{ path, headers, expect }` and a web `handler`, a node
 * `listener`, or (decryption floors) a bare `op`; or `{ unavailable }`.
 */
export async function target(id, { root, before }) {
  const [, contender, scenario] = id.split("/")
  const spec = contenders[contender]
  if (!spec) throw new Error(`unknown case ${id}`)
  const { setup } = await import(`./contenders/${spec.module}.mjs`)
  return setup(scenario, { root, dir: spec.before ? before : root, node: spec.node === true })
}
