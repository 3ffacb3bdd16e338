/**
 * An adapter whose storage "goes away" on demand, for tests of what Sesame answers during an
 * outage: while {@link Outage.down}, every method (and every operation of its `store`) fails as
 * node-postgres fails when the server refuses connections (`connect ECONNREFUSED`, `code:
 * "ECONNREFUSED"`), so Sesame must recognise the failure by what drivers really throw.
 *
 * @module
 */

/** The error a driver throws when nothing listens on the database's port. */
export function connectionRefused(): Error {
  return Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED", errno: -111, syscall: "connect", address: "127.0.0.1", port: 5432 })
}

export interface Outage<A> {
  /** The adapter to configure: `adapter`'s methods, failing while down. */
  readonly adapter: A
  /** From now on, every call fails (calls already running finish). */
  down(): void
  up(): void
  readonly isDown: boolean
  /** Calls made (and refused) while down, by method name (`store.findOne` for the store's). */
  readonly refused: Map<string, number>
}

function failing<T extends object>(target: T, state: { down: boolean; refused: Map<string, number> }, prefix: string, wrapStore: boolean): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver)
      if (property === "store" && wrapStore && value && typeof value === "object") return failing(value as object, state, "store.", false)
      if (typeof value !== "function" || typeof property !== "string") return value
      return function (this: unknown, ...args: unknown[]) {
        if (state.down) {
          const name = `${prefix}${property}`
          state.refused.set(name, (state.refused.get(name) ?? 0) + 1)
          return Promise.reject(connectionRefused())
        }
        const self = this === receiver ? object : this
        const fn = value as (...a: unknown[]) => unknown
        // A transaction hands its callback an adapter (or store) that must fail too.
        if (property === "transaction" && typeof args[0] === "function") {
          const callback = args[0] as (tx: object) => unknown
          return fn.call(self, (tx: object) => callback(failing(tx, state, prefix, wrapStore)))
        }
        // `withUserFields` makes another adapter on the same storage.
        if (property === "withUserFields") return failing(fn.apply(self, args) as object, state, prefix, wrapStore)
        return fn.apply(self, args)
      }
    },
  })
}

/** `adapter`, failing on demand. */
export function outage<A extends object>(adapter: A): Outage<A> {
  const state = { down: false, refused: new Map<string, number>() }
  return {
    adapter: failing(adapter, state, "", true),
    down: () => void (state.down = true),
    up: () => void (state.down = false),
    get isDown() {
      return state.down
    },
    refused: state.refused,
  }
}

/** What a test reads of Sesame's answer during an outage: what is wrong with it (nothing, when empty) and its body. */
export interface UnavailableCheck {
  problems: string[]
  body: string
}

/**
 * What is wrong with `response` as Sesame's answer while the storage cannot be reached: it must be
 * a `503` with a `Retry-After` in seconds, never a redirect, never a cookie set or cleared, never
 * cached, with nothing of the driver's error in the body (`ECONNREFUSED`, a port, a stack frame,
 * `Configuration`); and the "Try again in a moment" page under a strict CSP (`kind: "page"`) or
 * the JSON `{ error: "StorageUnavailable", message }` (`kind: "json"`). Reads the body.
 */
export async function checkUnavailable(response: Response, kind: "page" | "json"): Promise<UnavailableCheck> {
  const problems: string[] = []
  const { headers } = response
  const body = await response.text()
  const expectThat = (ok: boolean, problem: string) => void (ok || problems.push(problem))
  expectThat(response.status === 503, `status ${response.status}, not 503`)
  expectThat(/^\d+$/.test(headers.get("retry-after") ?? ""), `Retry-After ${JSON.stringify(headers.get("retry-after"))}, not seconds`)
  expectThat(headers.get("location") === null, `a redirect to ${headers.get("location")}`)
  expectThat(headers.getSetCookie().length === 0, `cookies set: ${headers.getSetCookie().join(" | ")}`)
  expectThat((headers.get("cache-control") ?? "").includes("no-store"), `Cache-Control ${JSON.stringify(headers.get("cache-control"))}, not no-store`)
  expectThat(!/ECONNREFUSED|:5432|\bat \S+ \(|Configuration/.test(body), "the body shows the driver's error, a stack or Configuration")
  const type = headers.get("content-type") ?? ""
  if (kind === "json") {
    expectThat(type.startsWith("application/json"), `Content-Type ${type}, not JSON`)
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      parsed = undefined
    }
    const { error, message } = (parsed ?? {}) as { error?: unknown; message?: unknown }
    expectThat(error === "StorageUnavailable" && typeof message === "string", `the JSON is ${body.slice(0, 200)}`)
  } else {
    expectThat(type.startsWith("text/html"), `Content-Type ${type}, not HTML`)
    expectThat((headers.get("content-security-policy") ?? "").includes("default-src 'none'"), "no strict Content-Security-Policy")
    expectThat(body.includes("Try again in a moment"), "not the unavailable page")
  }
  return { problems, body }
}
