#!/usr/bin/env node
/**
 * Writes `src/webauthn/script.generated.ts`: the passkey page script bundled with
 * `@simplewebauthn/browser` (see `passkey-script.mjs`), as a string that
 * `GET {basePath}/webauthn-script` serves. The browser library thus ships inside `@sesame/core`
 * and is never loaded from another host.
 *
 * The output is git-ignored: `node scripts/build.mjs` (and so `npm test`) runs this before tsc.
 * Run it again after editing the page script or the client: `node packages/core/scripts/generate.mjs`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { buildPasskeyScript, core, generatedModule } from "./passkey-script.mjs"

const script = await buildPasskeyScript()
const target = join(core, "src", "webauthn", "script.generated.ts")
const source = generatedModule(script)
// Unchanged output is not rewritten, so that incremental builds stay no-ops.
if (!existsSync(target) || readFileSync(target, "utf8") !== source) writeFileSync(target, source)
console.log(`passkey script: ${script.code.length} bytes, version ${script.version}`)
