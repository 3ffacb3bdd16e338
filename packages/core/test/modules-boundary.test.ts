/**
 * Feature modules (issue 32): the core's hubs read the list of modules and name no capability. A
 * hub is where every capability would otherwise add a line: the configuration's resolution, the
 * dispatcher's table and the request handling, the public types, the adapter contract, the cookie
 * names, the built-in pages, events. A capability is a folder of its own (with its endpoints' file
 * in `actions/`).
 *
 * The capabilities that are not yet modules are listed below with the imports that tie them to the
 * hubs today, exactly: the test fails on a new import from a hub into a capability, and on a listed
 * one that is gone (strike it from the list, so that it cannot come back unseen). The list only
 * shrinks; when it is empty, the hubs name no capability.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { importGraph } from "./import-graph.js"

const src = join(import.meta.dirname, "..", "src")

const hubFiles = new Set(["config/resolve.ts", "config/providers.ts", "actions/index.ts", "actions/handle.ts", "types.ts", "adapters/types.ts", "http/cookies.ts", "http/context.ts", "events.ts"])
const isHub = (file: string) => hubFiles.has(file) || file.startsWith("pages/")

/** Each capability's files: its folder, and its endpoints' file in `actions/`. */
const capabilities: Record<string, (file: string) => boolean> = {
  "two-factor": (f) => f.startsWith("two-factor/") || f === "actions/two-factor.ts",
  password: (f) => f.startsWith("password/") || f === "actions/password.ts",
  passkeys: (f) => f.startsWith("webauthn/") || f === "actions/webauthn.ts",
  "api-tokens": (f) => f.startsWith("tokens/") || f === "actions/tokens.ts",
  "native-apps": (f) => f.startsWith("native/"),
  "email-sign-in": (f) => f.startsWith("email/") || f === "actions/verify-request.ts",
  "migrate-from-authjs": (f) => f.startsWith("migrate/"),
}

/** Imports from a hub into a capability that wait for the capability's move into a module. */
const notYetModules = [
  "actions/handle.ts -> migrate/authjs/session.ts",
  "actions/index.ts -> actions/password.ts",
  "actions/index.ts -> actions/tokens.ts",
  "actions/index.ts -> actions/two-factor.ts",
  "actions/index.ts -> actions/verify-request.ts",
  "actions/index.ts -> actions/webauthn.ts",
  "actions/index.ts -> native/flow.ts",
  "config/providers.ts -> email/resolve.ts",
  "config/providers.ts -> password/provider.ts",
  "config/providers.ts -> webauthn/provider.ts",
  "config/resolve.ts -> native/settings.ts",
  "config/resolve.ts -> tokens/settings.ts",
  "config/resolve.ts -> two-factor/settings.ts",
  "config/resolve.ts -> webauthn/provider.ts",
  "config/resolve.ts -> webauthn/types.ts",
  "pages/signin.ts -> email/types.ts",
  "pages/signin.ts -> password/types.ts",
  "pages/signin.ts -> webauthn/section.ts",
  "pages/signin.ts -> webauthn/types.ts",
  "types.ts -> email/types.ts",
  "types.ts -> password/types.ts",
  "types.ts -> webauthn/types.ts",
]

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
  it("import no capability beyond those still waiting to become modules", () => {
    expect(hubImports()).toEqual([...notYetModules].sort())
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
