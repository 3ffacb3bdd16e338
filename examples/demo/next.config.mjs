import { fileURLToPath } from "node:url"

/** The npm workspace root: @sesame/* are symlinks into it, which Turbopack only follows inside its root. */
const workspace = fileURLToPath(new URL("../..", import.meta.url))

/** @type {import("next").NextConfig} */
const nextConfig = {
  turbopack: { root: workspace },
  outputFileTracingRoot: workspace,
  // Native and lazily loaded server-only modules stay outside the server bundle; so does
  // oidc-provider (@sesame/oauth-provider's), which reads its own class names (its token classes'
  // `name` picks their lifetimes), which the bundle's minifier would rename.
  serverExternalPackages: ["better-sqlite3", "@simplewebauthn/server", "nodemailer", "oidc-provider"],
}

export default nextConfig
