/**
 * The SCIM 2.0 service (RFC 7644) at `<basePath>/sso/scim/v2`, for the identity providers of the
 * organizations' connections: every request authenticated by a connection's token first
 * (`auth.ts`: `401` otherwise, whatever the path), then one flat table of (path, method). An
 * unknown path is `404`, a known one with another method `405` with `Allow`. A refusal is a SCIM
 * Error; any other failure goes to the core, which answers `500` (or `503` while the storage is
 * out) without details.
 *
 * @module
 */
import type { ModuleService } from "@sesame/core"
import type { ResolvedSsoOptions } from "../options.js"
import { authenticate, type Scope } from "./auth.js"
import { getResourceType, getSchema, listResourceTypes, listSchemas, serviceProviderConfig } from "./discovery.js"
import { ScimError } from "./errors.js"
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from "./groups.js"
import { errorResponse } from "./http.js"
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from "./users.js"

type Handler = (scope: Scope, request: Request, id: string) => Promise<Response>

/** The endpoints by path (`:id` for a resource's id) and method. */
const endpoints: Readonly<Record<string, Readonly<Record<string, Handler>>>> = {
  ServiceProviderConfig: { GET: serviceProviderConfig },
  ResourceTypes: { GET: listResourceTypes },
  "ResourceTypes/:id": { GET: getResourceType },
  Schemas: { GET: listSchemas },
  "Schemas/:id": { GET: getSchema },
  Users: { GET: listUsers, POST: createUser },
  "Users/:id": { GET: getUser, PUT: replaceUser, PATCH: patchUser, DELETE: deleteUser },
  Groups: { GET: listGroups, POST: createGroup },
  "Groups/:id": { GET: getGroup, PUT: replaceGroup, PATCH: patchGroup, DELETE: deleteGroup },
}

/** The endpoint `path` falls under, and the id it names. */
function route(path: string): { methods: Readonly<Record<string, Handler>>; id: string } | undefined {
  const segments = path.split("/")
  if (segments.length === 1 && Object.hasOwn(endpoints, segments[0]!)) return { methods: endpoints[segments[0]!]!, id: "" }
  if (segments.length !== 2 || !segments[1]) return undefined
  const key = `${segments[0]}/:id`
  if (!Object.hasOwn(endpoints, key)) return undefined
  try {
    return { methods: endpoints[key]!, id: decodeURIComponent(segments[1]) }
  } catch {
    return undefined
  }
}

export function scimService(options: ResolvedSsoOptions): ModuleService {
  return {
    async handle(request, context) {
      try {
        const scope = await authenticate(options, request, context)
        const found = route(context.path)
        if (!found) throw new ScimError(404, undefined, "No such endpoint.")
        const handler = Object.hasOwn(found.methods, request.method) ? found.methods[request.method] : undefined
        if (!handler) throw new ScimError(405, undefined, `${request.method} is not allowed here.`, { allow: Object.keys(found.methods).join(", ") })
        return await handler(scope, request, found.id)
      } catch (error) {
        if (error instanceof ScimError) return errorResponse(error)
        throw error
      }
    },
  }
}
