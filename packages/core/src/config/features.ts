/**
 * The built-in capabilities' endpoints (`registry.ts`), gathered once: their rows for the
 * dispatcher, and the actions the router recognises with the core's own (a capability that
 * declares an endpoint the core or another capability has is a mistake in Sesame, caught here).
 *
 * @module
 */
import { actionNames, actionOf, coreActions, type ActionNames } from "../http/request.js"
import type { Routes } from "../modules/route.js"
import { builtInFeatures } from "../registry.js"

let gathered: { routes: Routes; names: ActionNames } | undefined

function gather(): { routes: Routes; names: ActionNames } {
  if (gathered) return gathered
  const routes: Record<string, Routes[string]> = {}
  for (const feature of builtInFeatures()) {
    for (const [key, row] of Object.entries(feature.routes ?? {})) {
      if (Object.hasOwn(routes, key) || Object.hasOwn(coreActions, actionOf(key).action)) throw new Error(`Feature "${feature.id}" declares the endpoint "${key}", which another one has.`)
      routes[key] = row
    }
  }
  gathered = { routes: Object.freeze(routes), names: actionNames(Object.keys(routes)) }
  return gathered
}

/** The built-in capabilities' rows, by `"<METHOD> <action>"` or `"<METHOD> <action>/:provider"`. */
export function featureRoutes(): Routes {
  return gather().routes
}

/** Every action the dispatcher serves: the core's and the capabilities'. */
export function endpointNames(): ActionNames {
  return gather().names
}
