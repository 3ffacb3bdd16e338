/**
 * What goes in and out of the SCIM service: every answer `application/scim+json` (RFC 7644 §3.1),
 * errors in the Error schema with `status` as a string (§3.12), and a request's body read as JSON
 * within {@link maxBodyBytes} (`413` beyond, counted as it arrives, whatever `Content-Length` says).
 *
 * @module
 */
import { readBodyWithin } from "@sesame/core"
import { invalidSyntax, ScimError } from "./errors.js"

export const schemas = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  group: "urn:ietf:params:scim:schemas:core:2.0:Group",
  enterpriseUser: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
  listResponse: "urn:ietf:params:scim:api:messages:2.0:ListResponse",
  patchOp: "urn:ietf:params:scim:api:messages:2.0:PatchOp",
  error: "urn:ietf:params:scim:api:messages:2.0:Error",
  serviceProviderConfig: "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig",
  resourceType: "urn:ietf:params:scim:schemas:core:2.0:ResourceType",
  schema: "urn:ietf:params:scim:schemas:core:2.0:Schema",
} as const

/** The largest body the service reads: a user or a group patch is a few KiB. */
export const maxBodyBytes = 64 * 1024

export const contentType = "application/scim+json"

export function scimResponse(status: number, body?: unknown, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { "content-type": contentType, ...headers } })
}

export function errorResponse(error: ScimError): Response {
  const body = { schemas: [schemas.error], status: String(error.status), ...(error.scimType ? { scimType: error.scimType } : {}), detail: error.detail }
  return scimResponse(error.status, body, error.headers)
}

const tooLarge = () => new ScimError(413, undefined, `The body is larger than ${maxBodyBytes} bytes.`)

/** The request's body as a JSON object: `413` past the limit, `400 invalidSyntax` when it is not one. */
export async function readJson(request: Request): Promise<Record<string, unknown>> {
  const bytes = await readBodyWithin(request, maxBodyBytes, tooLarge)
  if (!request.body) throw invalidSyntax("The request has no body.")
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes))
  } catch {
    throw invalidSyntax("The body is not JSON.")
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw invalidSyntax("The body must be a JSON object.")
  return parsed as Record<string, unknown>
}

/** Refuses a body whose `schemas` (when it has one) does not name `urn`. */
export function requireSchema(body: Record<string, unknown>, urn: string): void {
  if (body.schemas === undefined) return
  if (!Array.isArray(body.schemas) || !body.schemas.some((s) => typeof s === "string" && s.toLowerCase() === urn.toLowerCase())) {
    throw invalidSyntax(`\`schemas\` must include "${urn}".`)
  }
}

/** The query's parameter `name`; `400` when it is given twice. */
export function queryParam(url: URL, name: string): string | undefined {
  const values = url.searchParams.getAll(name)
  if (values.length > 1) throw invalidSyntax(`\`${name}\` is given twice.`)
  return values[0]
}
