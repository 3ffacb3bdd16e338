import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

/**
 * The endpoint tests that run twice: through `Auth()` (the web-standard handler) and through the
 * Node.js handler (`toNodeHandler`, over HTTP; see packages/core/test/node-transport.ts), so that
 * both answer every request alike.
 */
const endpointTests = [
  "packages/core/test/endpoints.test.ts",
  "packages/core/test/session-reissue.test.ts",
  "packages/core/test/database-sessions.test.ts",
  "packages/core/test/cookies.test.ts",
  "packages/core/test/redirects.test.ts",
  "packages/core/test/callbacks-events.test.ts",
  "packages/core/test/account-management.test.ts",
  "packages/core/test/attacks/*.test.ts",
  "packages/core/test/email/links.test.ts",
  "packages/core/test/email/codes.test.ts",
  "packages/core/test/password/provider.test.ts",
  "packages/core/test/two-factor/sign-in.test.ts",
  "packages/core/test/webauthn/flows.test.ts",
  "packages/core/test/oauth/tampering.test.ts",
  "packages/core/test/pages/security.test.ts",
  "packages/core/test/api-tokens/endpoints.test.ts",
  "packages/core/test/native-apps.test.ts",
  "packages/core/test/migrate/authjs-sessions.test.ts",
  "packages/core/test/modules/services.test.ts",
]

// `sesame-source` makes workspace packages resolve to their TypeScript sources, so tests run
// without a build; the `node` condition still applies inside it (see packages/core/package.json).
export default defineConfig({
  resolve: { conditions: ["sesame-source"] },
  ssr: { resolve: { conditions: ["sesame-source"] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, where the suite
    // then waits on its servers (PostgreSQL, Chromium, the IdP, the mailbox) one file at a time.
    // Each file keeps its own schema, key prefix and ports, so files may run side by side.
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        extends: true,
        test: {
          name: "web",
          include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "bench/test/**/*.test.ts", "docs/test/**/*.test.ts", "test/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: { name: "node-handler", include: endpointTests, env: { SESAME_TEST_HANDLER: "node" } },
      },
    ],
  },
})
