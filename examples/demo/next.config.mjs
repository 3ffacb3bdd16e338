import { fileURLToPath } from "node:url"

/** The npm workspace root: @sesame/* are symlinks into it, which Turbopack only follows inside its root. */
const workspace = fileURLToPath(new URL("../..", import.meta.url))

/** @type {import("next").NextConfig} */
const nextConfig = {
  turbopack: { root: workspace },
  outputFileTracingRoot: workspace,
  // Native and lazily loaded server-only modules stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@simplewebauthn/server", "nodemailer"],
}

export default nextConfig
