/**
 * How an endpoint of the module reads its request and answers: fields from the query (a GET) or
 * the form or JSON body (a POST), and the action's result as JSON, or its refusal as
 * `{ error: code, message }` with its status ({@link OrganizationError}).
 *
 * @module
 */
import type { ModuleRequest, ModuleResponse, ModuleRoute } from "@sesame/core"
import { OrganizationError } from "./errors.js"

/** A field as the action takes it: a string from a form or query, or any JSON value. */
export const field = (request: ModuleRequest, name: string): unknown => (request.method === "GET" ? request.query[name] : request.body[name])

/** `roles`: one role name from a form, or a JSON list of them. */
export const rolesField = (request: ModuleRequest): string[] => field(request, "roles") as string[]

/** The fields of `names` the request has. */
export const present = (request: ModuleRequest, names: string[]) => Object.fromEntries(names.flatMap((name) => (field(request, name) === undefined ? [] : [[name, field(request, name)]])))

/** Runs `action` and answers its result as JSON, or its refusal. */
export function route(action: (request: ModuleRequest) => Promise<unknown>): ModuleRoute {
  return {
    async run(request): Promise<ModuleResponse> {
      try {
        const result = await action(request)
        return result === undefined ? { status: 204 } : { body: result }
      } catch (error) {
        if (error instanceof OrganizationError) return { status: error.status, body: { error: error.code, message: error.message } }
        throw error
      }
    },
  }
}

/** A yes-or-no field: a JSON boolean, or "true" / "false" from a form; anything else is `InvalidInput`. */
export function booleanField(request: ModuleRequest, name: string): boolean {
  const value = field(request, name)
  if (value === true || value === "true") return true
  if (value === false || value === "false") return false
  throw new OrganizationError("InvalidInput", `\`${name}\` must be true or false.`)
}
