/**
 * `@sesame/core/access` at runtime, imported as an app imports it: the checks, definitions that
 * are refused (as a JavaScript caller or stored JSON would write them), names that are keys of
 * `Object.prototype`, roles nobody defines any more, mutation after definition, and the example
 * of docs/features/permissions.md, run as written. (What the compiler refuses: ./types.test.ts.)
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { accessControl } from "@sesame/core/access"
import { readmeExample } from "@sesame/testing"

const ac = accessControl({
  project: ["create", "read", "update", "delete"],
  invoice: ["read", "pay"],
} as const)

const roles = ac.roles({
  owner: { project: ["create", "read", "update", "delete"], invoice: ["read", "pay"] },
  admin: { project: ["create", "read", "update"], invoice: ["read"] },
  member: { project: ["read"] },
})

/** Bypasses the types, as a JavaScript caller or data from storage does. */
const loose = (value: unknown) => value as never

/** Names that are keys of every object, or its prototype. */
const prototypeKeys = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]

describe("hasPermission", () => {
  it("is true when the roles grant every action asked, together", () => {
    expect(roles.hasPermission(["member"], { project: ["read"] })).toBe(true)
    expect(roles.hasPermission(["member", "owner"], { invoice: ["pay"] })).toBe(true)
    expect(roles.hasPermission(["member", "admin"], { project: ["update"], invoice: ["read"] })).toBe(true)
    expect(roles.hasPermission(["owner"], { project: ["create", "read", "update", "delete"], invoice: ["read", "pay"] })).toBe(true)
  })

  it("is false when one action asked is not granted", () => {
    expect(roles.hasPermission(["member"], { project: ["read", "delete"] })).toBe(false)
    expect(roles.hasPermission(["member"], { project: ["read"], invoice: ["read"] })).toBe(false)
    expect(roles.hasPermission(["admin"], { invoice: ["pay"] })).toBe(false)
    expect(roles.hasPermission(["admin", "member"], { project: ["delete"] })).toBe(false)
    expect(roles.hasPermission([], { project: ["read"] })).toBe(false)
  })

  it("fails closed on a role nobody defines (one a database still holds): it grants nothing, and nothing throws", () => {
    const stored = JSON.parse('["retired", "member"]') as string[]
    expect(roles.hasPermission(stored, { project: ["read"] })).toBe(true)
    expect(roles.hasPermission(stored, { project: ["update"] })).toBe(false)
    expect(roles.hasPermission(["retired"] as string[], { project: ["read"] })).toBe(false)
    expect(roles.hasPermission(["OWNER", " owner", "owner "] as string[], { project: ["read"] })).toBe(false)
  })

  it("fails closed on a role name that is a key of Object.prototype", () => {
    for (const name of prototypeKeys) {
      expect(roles.hasPermission(loose([name]), { project: ["read"] })).toBe(false)
      expect(roles.grantsOf(loose([name]))).toEqual({})
    }
  })

  it("is false for a resource or action that is a key of Object.prototype, even for a role that holds everything", () => {
    for (const key of prototypeKeys) {
      expect(roles.hasPermission(["owner"], loose({ [key]: ["read"] }))).toBe(false)
      expect(roles.hasPermission(["owner"], loose({ project: [key] }))).toBe(false)
      expect(roles.hasPermission(["owner"], loose(JSON.parse(`{"${key}": ["read"]}`)))).toBe(false)
    }
    // `{ "__proto__": … }` in JSON is an own key, not the prototype: refused.
    expect(roles.hasPermission(["owner"], loose(JSON.parse('{"project": ["read"], "__proto__": ["read"]}')))).toBe(false)
  })

  it("is false, never an exception, for a request that is not grants: unknown names, wrong types, nothing asked", () => {
    const refused: unknown[] = [
      { billing: ["read"] },
      { project: ["fly"] },
      { project: "read" },
      { project: ["read", "read"] },
      { project: [["read"]] },
      { project: [1] },
      { project: ["read"], extra: ["read"] },
      {},
      { project: [] },
      [],
      ["project"],
      null,
      undefined,
      "project:read",
      42,
      new Map([["project", ["read"]]]),
      Object.create({ project: ["read"] }),
      Object.defineProperty({}, "project", {
        enumerable: true,
        get() {
          throw new Error("a getter that throws")
        },
      }),
      new Proxy({}, { ownKeys: () => { throw new Error("a proxy that throws") } }),
    ]
    for (const wanted of refused) {
      expect(roles.hasPermission(["owner"], loose(wanted)), String(wanted)).toBe(false)
    }
  })

  it("grants nothing when the role names are not an array of strings", () => {
    for (const names of ["owner", null, undefined, { 0: "owner", length: 1 }, new Set(["owner"]), [1, null, { owner: true }]]) {
      expect(roles.hasPermission(loose(names), { project: ["read"] })).toBe(false)
    }
  })

  it("ignores what Object.prototype was polluted with", () => {
    const proto = Object.prototype as Record<string, unknown>
    proto.hacker = { project: ["delete"] }
    proto.project = ["delete"]
    try {
      expect(roles.hasPermission(loose(["hacker"]), { project: ["delete"] })).toBe(false)
      expect(roles.hasPermission(["member"], { project: ["delete"] })).toBe(false)
      expect(roles.grantsOf(["member"])).toEqual({ project: ["read"] })
    } finally {
      delete proto.hacker
      delete proto.project
    }
  })
})

describe("names that are keys of Object.prototype, in a definition", () => {
  it("are refused, as resource, action and role names", () => {
    for (const key of prototypeKeys) {
      const name = new RegExp(`name "${key}" is not valid`)
      expect(() => accessControl(loose(JSON.parse(`{"${key}": ["read"]}`))), key).toThrow(name)
      expect(() => accessControl(loose({ project: [key] })), key).toThrow(new RegExp(`name "${key}" \\(index 0 of "project"\\) is not valid`))
      expect(() => ac.roles(loose(JSON.parse(`{"${key}": {"project": ["read"]}}`))), key).toThrow(name)
      expect(() => roles.with(loose(JSON.parse(`{"${key}": {"project": ["read"]}}`))), key).toThrow(name)
    }
  })
})

describe("accessControl", () => {
  it("refuses statements that are not valid, naming what is wrong", () => {
    const cases: [unknown, RegExp][] = [
      [null, /the statements must be an object of resource names to arrays of actions, got null/],
      [[["project", ["read"]]], /got an array/],
      [new Map(), /got a Map/],
      [{ project: "read" }, /the actions of "project" must be an array, got the string "read"/],
      [{ project: [] }, /"project" lists no action/],
      [{ project: ["read", "read"] }, /"project" lists the action "read" twice/],
      [{ project: ["read", 7] }, /a number \(index 1 of "project"\) is not valid/],
      [{ project: [""] }, /the action name "" \(index 0 of "project"\) is not valid/],
      [{ project: ["Read"] }, /the action name "Read"/],
      [{ project: ["re ad"] }, /the action name "re ad"/],
      [{ project: ["1st"] }, /the action name "1st"/],
      [{ project: ["toString"] }, /the action name "toString" \(index 0 of "project"\) is not valid: .*not a member of Object\.prototype/],
      [{ constructor: ["read"] }, /the resource name "constructor" is not valid/],
      [{ "": ["read"] }, /the resource name "" is not valid/],
      [{ "pro/ject": ["read"] }, /the resource name "pro\/ject" is not valid/],
      [{ ["p" + "x".repeat(64)]: ["read"] }, /the resource name "px{64}" is not valid: from 1 to 64 characters/],
    ]
    for (const [statements, message] of cases) {
      expect(() => accessControl(loose(statements))).toThrow(TypeError)
      expect(() => accessControl(loose(statements))).toThrow(message)
    }
  })

  it("accepts names of 64 characters, camelCase, digits, _ and -", () => {
    const long = "p" + "x".repeat(63)
    const defined = accessControl({ [long]: ["read"], apiKey: ["rotate-2", "read_all"] })
    expect(Object.keys(defined.statements)).toEqual([long, "apiKey"])
  })

  it("copies and freezes the statements: changing the object passed in, or the one returned, changes nothing", () => {
    const input = { project: ["read", "update"] }
    const defined = accessControl(input)
    input.project.push("delete")
    ;(input as Record<string, string[]>).billing = ["read"]
    expect(defined.statements).toEqual({ project: ["read", "update"] })
    expect(() => defined.roles(loose({ r: { project: ["delete"] } }))).toThrow(TypeError)

    expect(Object.isFrozen(defined)).toBe(true)
    expect(Object.isFrozen(defined.statements)).toBe(true)
    expect(Object.isFrozen(defined.statements.project)).toBe(true)
    expect(() => (defined.statements.project as string[]).push("delete")).toThrow(TypeError)
    expect(() => ((defined.statements as Record<string, unknown>).billing = ["read"])).toThrow(TypeError)
    expect(() => ((defined as { covers: unknown }).covers = () => true)).toThrow(TypeError)
    expect(defined.statements).toEqual({ project: ["read", "update"] })
  })
})

describe("roles", () => {
  it("refuses grants that are not valid when they are defined, naming the role and what is wrong", () => {
    const cases: [unknown, RegExp][] = [
      [{ member: { billing: ["read"] } }, /roles: role "member": "billing" is not a resource of the statements \(project, invoice\)/],
      [{ member: { project: ["fly"] } }, /roles: role "member": "fly" \(index 0 of "project"\) is not an action of "project" \(create, read, update, delete\)/],
      [{ member: { project: "read" } }, /roles: role "member": the actions of "project" must be an array, got the string "read"/],
      [{ member: { project: ["read", "read"] } }, /roles: role "member": "project" lists the action "read" twice/],
      [{ member: { project: [null] } }, /null \(index 0 of "project"\) is not an action/],
      [{ member: ["project"] }, /roles: role "member": grants must be an object .* got an array/],
      [{ member: null }, /roles: role "member": grants must be an object .* got null/],
      [{ "Member Role": { project: ["read"] } }, /roles: the role name "Member Role" is not valid/],
      [[], /roles: the roles must be an object of role names to grants, got an array/],
      [null, /got null/],
    ]
    for (const [definitions, message] of cases) {
      expect(() => ac.roles(loose(definitions))).toThrow(TypeError)
      expect(() => ac.roles(loose(definitions))).toThrow(message)
    }
  })

  it("accepts a role that grants nothing, and a resource granted no action", () => {
    const r = ac.roles({ guest: {}, reader: { project: [], invoice: ["read"] } })
    expect(r.grantsOf(["guest"])).toEqual({})
    expect(r.grantsOf(["reader"])).toEqual({ invoice: ["read"] })
    expect(r.hasPermission(["guest"], { project: ["read"] })).toBe(false)
  })

  it("copies the definitions: changing them afterwards grants nothing more", () => {
    const definitions = { member: { project: ["read"] as ("read" | "delete")[] } }
    const r = ac.roles(definitions)
    definitions.member.project.push("delete")
    ;(definitions as Record<string, unknown>).owner = { project: ["delete"] }
    expect(r.hasPermission(["member"], { project: ["delete"] })).toBe(false)
    expect(r.hasPermission(loose(["owner"]), { project: ["delete"] })).toBe(false)
    expect(r.names).toEqual(["member"])
  })

  it("is frozen, and so is every grants object it returns", () => {
    expect(Object.isFrozen(roles)).toBe(true)
    expect(Object.isFrozen(roles.names)).toBe(true)
    expect(() => (roles.names as string[]).push("root")).toThrow(TypeError)
    expect(() => ((roles as { hasPermission: unknown }).hasPermission = () => true)).toThrow(TypeError)
    expect(roles.hasPermission(loose(["root"]), { project: ["delete"] })).toBe(false)

    const grants = roles.grantsOf(["member"])
    expect(Object.isFrozen(grants)).toBe(true)
    expect(Object.isFrozen(grants.project)).toBe(true)
    expect(() => (grants.project as string[]).push("delete")).toThrow(TypeError)
    expect(() => ((grants as Record<string, unknown>).invoice = ["pay"])).toThrow(TypeError)
    expect(roles.grantsOf(["member"])).toEqual({ project: ["read"] })
    expect(roles.hasPermission(["member"], { project: ["delete"] })).toBe(false)
  })

  it("grantsOf is the union of the roles' grants, in the statements' order, unknown names adding nothing", () => {
    expect(roles.grantsOf(["member"])).toEqual({ project: ["read"] })
    expect(roles.grantsOf(loose(["member", "retired", "admin", "member"]))).toEqual({ project: ["create", "read", "update"], invoice: ["read"] })
    expect(Object.keys(roles.grantsOf(["member", "owner"]))).toEqual(["project", "invoice"])
    expect(roles.grantsOf([])).toEqual({})
    expect(roles.grantsOf(loose("owner"))).toEqual({})
  })
})

describe("parseGrants", () => {
  it("returns valid grants as a frozen copy in the statements' order", () => {
    const input = JSON.parse('{"invoice": ["pay", "read"], "project": ["read"]}') as unknown
    const grants = ac.parseGrants(input)
    expect(grants).toEqual({ project: ["read"], invoice: ["read", "pay"] })
    expect(Object.keys(grants)).toEqual(["project", "invoice"])
    expect(grants.invoice).toEqual(["read", "pay"])
    expect(Object.isFrozen(grants)).toBe(true)
    expect(Object.isFrozen(grants.invoice)).toBe(true)
    expect(grants).not.toBe(input)
    expect(ac.parseGrants({})).toEqual({})
    expect(ac.parseGrants(Object.assign(Object.create(null) as object, { project: ["read"] }))).toEqual({ project: ["read"] })
  })

  it("throws a TypeError naming what is wrong: extra keys, wrong types, duplicates; nothing is dropped silently", () => {
    const cases: [string, RegExp][] = [
      ['{"project": ["read"], "admin": true}', /parseGrants: "admin" is not a resource of the statements \(project, invoice\)\./],
      ['{"project": ["read", "sudo"]}', /parseGrants: "sudo" \(index 1 of "project"\) is not an action of "project"/],
      ['{"project": "read"}', /the actions of "project" must be an array, got the string "read"/],
      ['{"project": {"0": "read"}}', /the actions of "project" must be an array, got an object/],
      ['{"project": [1]}', /a number \(index 0 of "project"\) is not an action/],
      ['{"project": ["read", "read"]}', /"project" lists the action "read" twice/],
      ['{"__proto__": ["read"]}', /"__proto__" is not a resource/],
      ['{"constructor": ["read"]}', /"constructor" is not a resource/],
      ['{"project": ["toString"]}', /"toString" \(index 0 of "project"\) is not an action/],
      ['[["project", "read"]]', /grants must be an object of resource names to arrays of actions, got an array/],
      ['"project"', /got the string "project"/],
      ["null", /got null/],
      ["12", /got a number/],
    ]
    for (const [json, message] of cases) {
      const input = JSON.parse(json) as unknown
      expect(() => ac.parseGrants(input), json).toThrow(TypeError)
      expect(() => ac.parseGrants(input), json).toThrow(message)
    }
    expect(() => ac.parseGrants(undefined)).toThrow(/got undefined/)
    expect(() => ac.parseGrants(new Date())).toThrow(/got a Date/)
    expect(() => ac.parseGrants({ constructor: ["read"] })).toThrow(/"constructor" is not a resource/)
    expect(() => ac.parseGrants({ project: ["read"], [Symbol("x")]: ["delete"] })).not.toThrow()
  })

  it("cuts a long name short in its message", () => {
    const name = "x".repeat(10_000)
    let message = ""
    try {
      ac.parseGrants({ [name]: ["read"] })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message.length).toBeLessThan(300)
    expect(message).toContain(`"${"x".repeat(80)}…"`)
  })
})

describe("with: roles from data", () => {
  it("adds roles whose grants were stored, and keeps the others", () => {
    const stored = JSON.parse('{"auditor": {"invoice": ["read"]}}') as Record<string, unknown>
    const all = roles.with(Object.fromEntries(Object.entries(stored).map(([name, grants]) => [name, ac.parseGrants(grants)])))
    expect(all.names).toEqual(["owner", "admin", "member", "auditor"])
    expect(all.hasPermission(["auditor"], { invoice: ["read"] })).toBe(true)
    expect(all.hasPermission(["auditor"], { invoice: ["pay"] })).toBe(false)
    expect(all.hasPermission(["auditor", "member"], { invoice: ["read"], project: ["read"] })).toBe(true)
    expect(all.hasPermission(["owner"], { project: ["delete"] })).toBe(true)
    expect(Object.isFrozen(all)).toBe(true)
    // The set it was made from is unchanged.
    expect(roles.names).toEqual(["owner", "admin", "member"])
    expect(roles.hasPermission(loose(["auditor"]), { invoice: ["read"] })).toBe(false)
  })

  it("never replaces a role: a stored role named like one defined in code is refused", () => {
    expect(() => roles.with(loose({ member: { project: ["create", "read", "update", "delete"] } }))).toThrow(/with: the role "member" is already defined; a role is never replaced/)
    const more = roles.with({ auditor: { invoice: ["read"] } })
    expect(() => more.with(loose({ auditor: { invoice: ["pay"] } }))).toThrow(TypeError)
    expect(roles.hasPermission(["member"], { project: ["delete"] })).toBe(false)
  })

  it("checks the grants it is given, as roles() does", () => {
    expect(() => roles.with(loose({ auditor: { invoice: ["read"], admin: true } }))).toThrow(/with: role "auditor": "admin" is not a resource/)
    expect(() => roles.with(loose({ auditor: { invoice: "read" } }))).toThrow(TypeError)
    expect(() => roles.with(loose(JSON.parse('{"__proto__": {"invoice": ["read"]}}')))).toThrow(/with: the role name "__proto__" is not valid/)
    expect(() => roles.with(loose(null))).toThrow(TypeError)
  })
})

describe("covers", () => {
  it("is true when the first grants include every action of the second", () => {
    const owner = roles.grantsOf(["owner"])
    const admin = roles.grantsOf(["admin"])
    const member = roles.grantsOf(["member"])
    expect(ac.covers(owner, admin)).toBe(true)
    expect(ac.covers(admin, member)).toBe(true)
    expect(ac.covers(admin, admin)).toBe(true)
    expect(ac.covers(admin, owner)).toBe(false) // an admin cannot make an owner
    expect(ac.covers(member, admin)).toBe(false)
    expect(ac.covers(member, {})).toBe(true) // a role that grants nothing is below every role
    expect(ac.covers({}, member)).toBe(false)
    expect(ac.covers(roles.grantsOf(["admin", "member"]), { project: ["update"], invoice: ["read"] })).toBe(true)
    expect(ac.covers(admin, { invoice: ["pay"] })).toBe(false) // a custom role granting what its author lacks
  })

  it("is false, never an exception, when either side is not valid grants", () => {
    const owner = roles.grantsOf(["owner"])
    for (const bad of [null, "everything", { project: "read" }, { project: ["fly"] }, { billing: ["read"] }, { constructor: ["read"] }, JSON.parse('{"__proto__": ["read"]}'), [owner]]) {
      expect(ac.covers(owner, loose(bad))).toBe(false)
      expect(ac.covers(loose(bad), {})).toBe(false)
    }
  })
})

describe("docs/features/permissions.md", () => {
  const page = join(import.meta.dirname, "..", "..", "..", "..", "docs", "features", "permissions.md")
  const scratch = join(import.meta.dirname, "..", ".scratch", "access")

  it("runs the example as written: checks, roles stored as JSON, and a custom role no larger than its author", async () => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "permissions.ts")
    writeFileSync(file, readmeExample(page, "permissions"))
    const written = (await import(file)) as {
      canDeleteProjects: (memberRoles: string[]) => boolean
      withCustomRole: (authorRoles: string[], name: string, stored: unknown) => { hasPermission: (roles: string[], wanted: Record<string, string[]>) => boolean }
    }
    expect(written.canDeleteProjects(["owner"])).toBe(true)
    expect(written.canDeleteProjects(["member", "accountant"])).toBe(false)
    expect(written.canDeleteProjects(["retired-role"])).toBe(false)
    expect(written.canDeleteProjects(["__proto__", "constructor"])).toBe(false)

    const withAuditor = written.withCustomRole(["accountant"], "auditor", JSON.parse('{"invoice": ["read"]}'))
    expect(withAuditor.hasPermission(["auditor"], { invoice: ["read"] })).toBe(true)
    expect(withAuditor.hasPermission(["auditor"], { invoice: ["pay"] })).toBe(false)
    expect(() => written.withCustomRole(["accountant"], "deleter", { project: ["delete"] })).toThrow("deleter grants more than its author holds")
    expect(() => written.withCustomRole(["owner"], "sneaky", { invoice: ["read"], admin: ["everything"] })).toThrow(TypeError)
    expect(() => written.withCustomRole(["owner"], "member", { project: ["read"] })).toThrow(/already defined/)
  })
})
