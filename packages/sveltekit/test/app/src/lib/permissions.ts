/**
 * The guards' `allow` of the test app: `project:<permission>` asked of the `permissions` plugin
 * through `api(event)` (Alice holds `project:read`), or, for the permissions named `outage` and
 * `broken`, a check that throws a `StorageUnavailable` or another error. Each call is recorded.
 */
import { StorageUnavailable, type AuthenticatedSession, type ServerFunctionsOf } from "@sesame/sveltekit"
import type { RequestEvent } from "@sveltejs/kit"
import { api, type permissions } from "../auth.js"
import { probe } from "./probe.js"

export function allowFor(permission: string) {
  return async (session: AuthenticatedSession, event: RequestEvent): Promise<boolean> => {
    probe().allowCalls.push(`${permission} for ${session.user.email} at ${event.url.pathname}`)
    if (permission === "outage") throw new StorageUnavailable()
    if (permission === "broken") throw new Error("the permission store broke")
    return (await (api(event) as ServerFunctionsOf<typeof permissions>).hasPermission(`project:${permission}`)) === true
  }
}
