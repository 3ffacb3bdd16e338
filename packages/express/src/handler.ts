/**
 * `SesameAuth(config)`: Sesame's endpoints as an Express middleware, on the core's Node.js handler
 * (`toNodeHandler` of `@sesame/core/node`), which reads Node's request and writes Node's response
 * without making a web `Request` or `Response`.
 *
 * Policy:
 * 1. The base path is the core's (`basePath`, else `AUTH_URL`'s path, else `/auth`), and the
 *    middleware must be mounted there (`app.use("/auth", …)`) or at the application's root
 *    (`app.use(…)`, where it answers the requests under the base path and passes the others on).
 *    Express hides the mount path from the middleware until a request arrives, so a mismatch is
 *    caught on the first request below it: each such request goes to the app's error handlers
 *    with a `TypeError` that names both paths, rather than half working (the core would build its
 *    URLs, OAuth callbacks included, on a base path where nothing answers).
 * 2. Bodies: the core reads the body itself. When a body parser ran before
 *    (`express.urlencoded()`, `express.json()`), the core takes what it left on `req.body` and
 *    applies its own rules to it (a repeated or nested field, a file: refused with a 4xx).
 * 3. The host and proxy rules are the core's (`AUTH_URL`, `trustHost`, `AUTH_TRUST_HOST`): the
 *    request reaches the core with its headers as they arrived, and Express's `trust proxy`
 *    setting plays no part (see the README's "Behind a proxy").
 *
 * @module
 */
import type { AuthConfig } from "@sesame/core"
import { basePathOf } from "@sesame/core/integration"
import { toNodeHandler } from "@sesame/core/node"
import { checkConfig, defaultBasePath } from "./config.js"
import type { Middleware } from "./types.js"

/**
 * Makes the middleware that serves Sesame's endpoints (sign-in pages and actions, OAuth callbacks,
 * `session`, `csrf`, `providers`, sign-out…), for GET and POST alike. It parses its own bodies.
 *
 * @param config - the configuration, the very object to give `getSession`, `requireSession`,
 *   `signIn` and `signOut` too.
 * @throws `TypeError` when `config` is not an object. A mount path other than the base path is
 *   reported on the first request below it (see the module's policy).
 *
 * @example
 * ```ts
 * const app = express()
 * app.use("/auth", SesameAuth(authConfig))
 * ```
 */
export function SesameAuth(config: AuthConfig): Middleware {
  checkConfig(config, "SesameAuth")
  const basePath = basePathOf(config, defaultBasePath)
  const handle = toNodeHandler(config)
  return (req, res, next) => {
    const mount = req.baseUrl ?? ""
    // Express matches mount paths without regard to case; the core's base path is compared as sent.
    if (mount !== "" && mount.toLowerCase() !== basePath.toLowerCase()) {
      next(
        new TypeError(
          `SesameAuth is mounted at "${mount}", but Sesame's base path is "${basePath || "/"}". Mount it there (app.use("${basePath}", SesameAuth(config))), or set \`basePath: "${mount}"\` in the configuration.`,
        ),
      )
      return
    }
    void handle(req, res, next)
  }
}
