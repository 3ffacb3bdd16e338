/**
 * Feature modules (issue 32): the core's hubs read the list of modules and name no capability. A
 * hub is where every capability would otherwise add a line: the configuration's resolution, the
 * dispatcher's table and the request handling, the public types, the adapter contract, the cookie
 * names, the built-in pages, events. A capability is a folder of its own, whose `feature.ts`
 * declares what the hubs read (`modules/feature.ts`); `registry.ts`, the registration list, is the
 * one file that lists them.
 *
 * The test fails when a hub imports a capability's folder, type-only imports included: what a hub
 * needs of a capability goes through the registration list.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { importGraph } from "./import-graph.js"

const src = join(import.meta.dirname, "..", "src")

const hubFiles = new Set(["config/resolve.ts", "config/providers.ts", "config/features.ts", "http/request.ts", "actions/index.ts", "actions/handle.ts", "types.ts", "adapters/types.ts", "http/cookies.ts", "http/context.ts", "http/server-context.ts", "events.ts"])
const isHub = (file: string) => hubFiles.has(file) || file.startsWith("pages/")

/** Each capability's files: its folder (its endpoints and its `feature.ts` included). */
const capabilities: Record<string, (file: string) => boolean> = {
  "two-factor": (f) => f.startsWith("two-factor/"),
  password: (f) => f.startsWith("password/"),
  passkeys: (f) => f.startsWith("webauthn/"),
  "api-tokens": (f) => f.startsWith("tokens/"),
  "native-apps": (f) => f.startsWith("native/"),
  "email-sign-in": (f) => f.startsWith("email/"),
  "migrate-from-authjs": (f) => f.startsWith("migrate/"),
}


function hubImports(): string[] {
  const found = new Set<string>()
  for (const [file, edges] of importGraph(src)) {
    if (!isHub(file)) continue
    for (const { to } of edges) {
      if (Object.values(capabilities).some((belongs) => belongs(to)) && !(isHub(to) && !to.startsWith("actions/"))) found.add(`${file} -> ${to}`)
    }
  }
  return [...found].sort()
}

describe("the core's hubs and the capabilities", () => {
  it("import no capability: they read the registration list (`registry.ts`)", () => {
    expect(hubImports()).toEqual([])
  })

  it("keep the generic module machinery free of every capability", () => {
    const offenders: string[] = []
    for (const [file, edges] of importGraph(src)) {
      if (!file.startsWith("modules/") && !file.startsWith("store/")) continue
      for (const { to } of edges) if (Object.values(capabilities).some((belongs) => belongs(to))) offenders.push(`${file} -> ${to}`)
    }
    expect(offenders).toEqual([])
  })
})
