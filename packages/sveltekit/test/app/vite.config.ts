import { sveltekit } from "@sveltejs/kit/vite"
import { defaultServerConditions, defineConfig } from "vite"

// `sesame-source`: the Sesame packages are built from their TypeScript sources, so the tests
// need no `npm run build` first (as Vitest resolves them).
export default defineConfig({
  plugins: [sveltekit()],
  ssr: { resolve: { conditions: ["sesame-source", ...defaultServerConditions] } },
  logLevel: "warn",
})
