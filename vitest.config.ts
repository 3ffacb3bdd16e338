import { defineConfig } from "vitest/config"

// `sesame-source` makes workspace packages resolve to their TypeScript sources, so tests run
// without a build; the `node` condition still applies inside it (see packages/core/package.json).
export default defineConfig({
  resolve: { conditions: ["sesame-source"] },
  ssr: { resolve: { conditions: ["sesame-source"] } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "bench/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
})
