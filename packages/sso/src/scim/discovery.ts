/**
 * What the service says of itself (RFC 7644 §4, RFC 7643 §5–7): `ServiceProviderConfig` (PATCH
 * yes; bulk, sort, ETags and password changes no; filters of {@link maxResults} at most; a bearer
 * token), the two `ResourceTypes`, and the `Schemas` of the attributes it keeps. Answered to an
 * authenticated request, as everything else.
 *
 * @module
 */
import type { Scope } from "./auth.js"
import { notFound } from "./errors.js"
import { schemas, scimResponse } from "./http.js"
import { maxResults } from "./list.js"

type Attribute = Record<string, unknown>

interface SchemaInfo {
  id: string
  name: string
  description: string
  attributes: Attribute[]
}

function attribute(name: string, extra: Attribute = {}): Attribute {
  return { name, type: "string", multiValued: false, required: false, caseExact: false, mutability: "readWrite", returned: "default", uniqueness: "none", ...extra }
}

const userSchema: SchemaInfo = {
  id: schemas.user,
  name: "User",
  description: "A person the organization's identity provider provisions.",
  attributes: [
    attribute("userName", { required: true, uniqueness: "server" }),
    attribute("name", { type: "complex", subAttributes: [attribute("givenName"), attribute("familyName"), attribute("formatted", { mutability: "readOnly" })] }),
    attribute("displayName"),
    attribute("active", { type: "boolean" }),
    attribute("emails", {
      type: "complex",
      multiValued: true,
      mutability: "immutable",
      subAttributes: [attribute("value", { mutability: "immutable" }), attribute("type", { mutability: "immutable", canonicalValues: ["work"] }), attribute("primary", { type: "boolean", mutability: "immutable" })],
    }),
  ],
}

const groupSchema: SchemaInfo = {
  id: schemas.group,
  name: "Group",
  description: "A group of the identity provider: its members hold the organization's role of the same name, when there is one.",
  attributes: [
    attribute("displayName", { required: true, uniqueness: "server" }),
    attribute("members", {
      type: "complex",
      multiValued: true,
      subAttributes: [attribute("value", { mutability: "immutable", caseExact: true }), attribute("$ref", { type: "reference", referenceTypes: ["User"], mutability: "immutable" })],
    }),
  ],
}

const resourceTypes = [
  { id: "User", name: "User", endpoint: "/Users", description: "User", schema: schemas.user },
  { id: "Group", name: "Group", endpoint: "/Groups", description: "Group", schema: schemas.group },
]

function list(items: unknown[]): Record<string, unknown> {
  return { schemas: [schemas.listResponse], totalResults: items.length, startIndex: 1, itemsPerPage: items.length, Resources: items }
}

const schemaOf = (scope: Scope, schema: SchemaInfo) => ({ schemas: [schemas.schema], ...schema, meta: { resourceType: "Schema", location: `${scope.base}/Schemas/${schema.id}` } })

const resourceTypeOf = (scope: Scope, type: (typeof resourceTypes)[number]) => ({ schemas: [schemas.resourceType], ...type, meta: { resourceType: "ResourceType", location: `${scope.base}/ResourceTypes/${type.id}` } })

export async function serviceProviderConfig(scope: Scope): Promise<Response> {
  return scimResponse(200, {
    schemas: [schemas.serviceProviderConfig],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [{ type: "oauthbearertoken", name: "Bearer token", description: "The connection's SCIM token, made by the organization's admins, as `Authorization: Bearer <token>`.", primary: true }],
    meta: { resourceType: "ServiceProviderConfig", location: `${scope.base}/ServiceProviderConfig` },
  })
}

export async function listResourceTypes(scope: Scope): Promise<Response> {
  return scimResponse(200, list(resourceTypes.map((type) => resourceTypeOf(scope, type))))
}

export async function getResourceType(scope: Scope, _request: Request, id: string): Promise<Response> {
  const type = resourceTypes.find((t) => t.id === id)
  if (!type) throw notFound("resource type")
  return scimResponse(200, resourceTypeOf(scope, type))
}

export async function listSchemas(scope: Scope): Promise<Response> {
  return scimResponse(200, list([userSchema, groupSchema].map((schema) => schemaOf(scope, schema))))
}

export async function getSchema(scope: Scope, _request: Request, id: string): Promise<Response> {
  const schema = [userSchema, groupSchema].find((s) => s.id === id)
  if (!schema) throw notFound("schema")
  return scimResponse(200, schemaOf(scope, schema))
}
