import { fileURLToPath } from "node:url"

/** The npm workspace root: @sesame/* are symlinks into it, which Turbopack only follows inside its root. */
const workspace = fileURLToPath(new URL("../../../..", import.meta.url))

/** @type {import("next").NextConfig} */
const nextConfig = {
  turbopack: { root: workspace },
  outputFileTracingRoot: workspace,
}

export default nextConfig
