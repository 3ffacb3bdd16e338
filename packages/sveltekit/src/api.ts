/**
 * `api(event)`, of {@link SvelteKitAuth}: the plugins' server functions for the request SvelteKit
 * is handling.
 *
 * Policy:
 * 1. It takes the event, as `signIn` and `signOut` beside it do, and as every server-side place
 *    of SvelteKit has one: a `load`, a form action, a `+server.ts` handler, a hook (and
 *    `getRequestEvent()` in a remote function or a helper they call).
 * 2. The configuration is the one `handle` resolved for the request, else the one given to
 *    `SvelteKitAuth` (a lazy one run for the event).
 * 3. The functions read the request `locals.auth()` reads: the browser's, or, after a sign-in or
 *    sign-out in the same request (a form action that does not redirect), the same with the
 *    cookies as they are now (session.ts, policy 5), so that they never act for a user the request
 *    no longer has.
 * 4. Nothing per plugin: `api(event).<name>(...args)` is the core's `callModuleApi`, with its errors
 *    (a `TypeError` for a name no plugin has, `MissingAdapterMethods` for a plugin that is off).
 *    Unlike `locals.auth()`, it does not fail closed: it acts, and the caller must know when that
 *    did not happen. A server function sets no cookie.
 *
 * @module
 */
import { callModuleApi, moduleApi, type ModuleApi } from "@sesame/core/integration"
import type { RequestEvent } from "@sveltejs/kit"
import { load } from "./config.js"
import { currentRequest, preparedOf } from "./session.js"
import type { SvelteKitAuthConfigInput } from "./types.js"

/**
 * The server functions of the configuration's plugins (`plugins`), for the request of `event`:
 * each reads the request's signed-in user (or none), as `event.locals.auth()` does.
 *
 * A function of the event beside `signIn` and `signOut`, not something on `event.locals`: it works
 * wherever SvelteKit hands server code the event (a `+server.ts` and a form action as much as a
 * `load`), costs nothing on the requests that do not call it, and is typed where it is used
 * (`api(event) as ServerFunctionsOf<typeof plugin>`) rather than once for the whole app in
 * `App.Locals`.
 *
 * @returns `api.<name>(...args)` runs the plugin's server function `name`. For their types,
 *   `api(event) as ServerFunctionsOf<typeof plugin>` (`ServerFunctionsOf` from this package or
 *   `@sesame/core`). A function of a plugin that is off (its models need an adapter with a
 *   `store`) rejects with `MissingAdapterMethods`; a name no plugin has, with a `TypeError`.
 *
 * @example
 * ```ts
 * // src/routes/+page.server.ts
 * import type { ServerFunctionsOf } from "@sesame/sveltekit"
 * import { api, visits } from "../auth"
 * import type { PageServerLoad } from "./$types"
 *
 * export const load: PageServerLoad = async (event) => ({ count: await (api(event) as ServerFunctionsOf<typeof visits>).visit() })
 * ```
 */
export type Api = (event: RequestEvent) => ModuleApi

/** The `api` of {@link SvelteKitAuth} for `input`. */
export function apiOf(input: SvelteKitAuthConfigInput): Api {
  return (event) =>
    moduleApi(async (name, args) => {
      const { config } = preparedOf(event) ?? (await load(input, event))
      return callModuleApi(currentRequest(event), config, name, ...args)
    })
}
