/**
 * `@sesame/core/access` at compile time: what the compiler refuses. Each `// @ts-expect-error`
 * fails the type check (`npx tsc -p tsconfig.json --noEmit`, from the repository's root) when the
 * line below it compiles, so a type that grew too loose shows up there; the runtime assertions
 * check that the same calls are refused when the types are bypassed.
 */
import { describe, expect, expectTypeOf, it } from "vitest"
import { accessControl, type Grants, type Roles } from "@sesame/core/access"

const ac = accessControl({
  project: ["create", "read", "update", "delete"],
  invoice: ["read", "pay"],
} as const)

const roles = ac.roles({
  owner: { project: ["create", "read", "update", "delete"], invoice: ["read", "pay"] },
  member: { project: ["read"] },
})

type S = typeof ac.statements

describe("the types of @sesame/core/access", () => {
  it("infers the statements, the grants and the role names", () => {
    expectTypeOf(ac.statements.invoice).toEqualTypeOf<readonly ["read", "pay"]>()
    expectTypeOf<Grants<S>>().toEqualTypeOf<{
      readonly project?: readonly ("create" | "read" | "update" | "delete")[]
      readonly invoice?: readonly ("read" | "pay")[]
    }>()
    expectTypeOf(roles).toEqualTypeOf<Roles<S, "owner" | "member">>()
    expectTypeOf(roles.names).toEqualTypeOf<readonly ("owner" | "member")[]>()
    expectTypeOf(roles.grantsOf(["member"])).toEqualTypeOf<Grants<S>>()
    expectTypeOf(ac.parseGrants({})).toEqualTypeOf<Grants<S>>()
  })

  it("accepts the statements without `as const`", () => {
    const plain = accessControl({ project: ["read", "write"] })
    expectTypeOf(plain.statements.project).toEqualTypeOf<readonly ["read", "write"]>()
    const r = plain.roles({ reader: { project: ["read"] } })
    expect(r.hasPermission(["reader"], { project: ["read"] })).toBe(true)
    // @ts-expect-error: "delete" is not an action of "project"
    expect(() => plain.roles({ deleter: { project: ["delete"] } })).toThrow(TypeError)
  })

  it("refuses an unknown resource or action in a grant", () => {
    // @ts-expect-error: "billing" is not a resource
    expect(() => ac.roles({ member: { billing: ["read"] } })).toThrow(TypeError)
    // @ts-expect-error: "billing" is not a resource, beside a known one
    expect(() => ac.roles({ member: { project: ["read"], billing: ["read"] } })).toThrow(TypeError)
    // @ts-expect-error: "pay" is not an action of "project"
    expect(() => ac.roles({ member: { project: ["pay"] } })).toThrow(TypeError)
    // @ts-expect-error: the actions are an array
    expect(() => ac.roles({ member: { project: "read" } })).toThrow(TypeError)
  })

  it("refuses an unknown resource or action in a check", () => {
    // @ts-expect-error: "billing" is not a resource
    expect(roles.hasPermission(["owner"], { billing: ["read"] })).toBe(false)
    // @ts-expect-error: "pay" is not an action of "project"
    expect(roles.hasPermission(["owner"], { project: ["pay"] })).toBe(false)
    // @ts-expect-error: "billing" is not a resource
    expect(ac.covers({ project: ["read"] }, { billing: ["read"] })).toBe(false)
  })

  it("refuses a role name that is not defined, when the names are known to the compiler", () => {
    // @ts-expect-error: "admin" is not a role
    expect(roles.hasPermission(["admin"], { project: ["read"] })).toBe(false)
    // @ts-expect-error: "admin" is not a role, beside one that is
    expect(roles.hasPermission(["member", "admin"], { project: ["read"] })).toBe(true)
    // @ts-expect-error: "admin" is not a role
    roles.grantsOf(["admin"])
    const typed: ("owner" | "member")[] = ["member"]
    expect(roles.hasPermission(typed, { project: ["read"] })).toBe(true)
  })

  it("accepts role names read at runtime (string[]), which grant nothing when unknown", () => {
    const stored: string[] = JSON.parse('["member", "admin"]') as string[]
    expect(roles.hasPermission(stored, { project: ["read"] })).toBe(true)
    expect(roles.hasPermission(stored, { project: ["delete"] })).toBe(false)
    const readonlyStored: readonly string[] = ["admin"]
    expect(roles.grantsOf(readonlyStored)).toEqual({})
  })

  it("adds roles with `with`, typed by their names or as any string", () => {
    const more = roles.with({ accountant: { invoice: ["read", "pay"] } })
    expectTypeOf(more).toEqualTypeOf<Roles<S, "owner" | "member" | "accountant">>()
    expect(more.hasPermission(["accountant"], { invoice: ["pay"] })).toBe(true)
    // @ts-expect-error: "auditor" is not a role
    more.hasPermission(["auditor"], { invoice: ["read"] })
    // @ts-expect-error: "fly" is not an action of "invoice"
    expect(() => roles.with({ pilot: { invoice: ["fly"] } })).toThrow(TypeError)

    const name: string = "auditor"
    const dynamic = roles.with({ [name]: ac.parseGrants({ invoice: ["read"] }) })
    expectTypeOf(dynamic).toEqualTypeOf<Roles<S, string>>()
    expect(dynamic.hasPermission(["auditor"], { invoice: ["read"] })).toBe(true)
  })

  it("types the statements' shape", () => {
    // @ts-expect-error: the actions are an array of strings
    expect(() => accessControl({ project: "read" })).toThrow(TypeError)
    // @ts-expect-error: the actions are strings
    expect(() => accessControl({ project: [1] })).toThrow(TypeError)
  })
})
