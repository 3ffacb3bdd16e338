/**
 * The documentation site (VitePress). The pages are staged in docs/build/src by
 * docs/scripts/build.mjs (docs/**\/*.md, the packages' and examples' READMEs, the API reference),
 * which is the `srcDir` here; the sidebar is in the order a newcomer needs it.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { defineConfig } from "vitepress"
import { headingId } from "../scripts/heading-id.mjs"

const buildDir = join(import.meta.dirname, "..", "build")
const srcDir = join(buildDir, "src")

/** The API reference's sidebar, written by docs/scripts/api.mjs. */
function apiSidebar() {
  const file = join(srcDir, "reference", "api", "sidebar.json")
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : []
}

const readme = (group, name, text) => ({ text, link: `/${group}/${name}` })

export default defineConfig({
  title: "Sesame",
  description: "Authentication for web applications: OAuth 2 / OpenID Connect, email, passwords, passkeys, two-factor, sessions, adapters.",
  lang: "en",
  srcDir,
  outDir: join(buildDir, "dist"),
  cacheDir: join(buildDir, "cache"),
  cleanUrls: false,
  lastUpdated: false,
  // Fails the build on a link to a page that does not exist (the guides' links to the app they
  // build, on localhost, are not pages); anchors are checked in Chromium (docs/test).
  ignoreDeadLinks: "localhostLinks",
  // The pages are written for GitHub too, and speak of `<basePath>` and "Sign in with <name>" in
  // prose and in TSDoc: text, never HTML. (Their `<!-- example -->` markers are left out when staged.)
  markdown: { html: false, anchor: { slugify: headingId }, theme: { light: "github-light", dark: "github-dark" } },
  // The local search index is one chunk of a few megabytes, loaded when the search opens.
  vite: { build: { chunkSizeWarningLimit: 8000 } },
  themeConfig: {
    search: { provider: "local" },
    outline: { level: [2, 3] },
    nav: [
      { text: "Guide", link: "/start/next" },
      { text: "API reference", link: "/reference/api/core/" },
      { text: "Migrating from Auth.js", link: "/migrate/from-authjs" },
    ],
    sidebar: [
      {
        text: "Getting started",
        items: [
          { text: "Introduction", link: "/" },
          { text: "Next.js", link: "/start/next" },
          { text: "SolidStart", link: "/start/solid-start" },
          { text: "Express", link: "/start/express" },
          { text: "Fastify", link: "/start/fastify" },
          { text: "Hono", link: "/start/hono" },
          { text: "SvelteKit", link: "/start/sveltekit" },
          { text: "Astro", link: "/start/astro" },
          { text: "React Router", link: "/start/react-router" },
          { text: "Nuxt", link: "/start/nuxt" },
          { text: "TanStack Start", link: "/start/tanstack-start" },
          { text: "Node.js and fetch", link: "/start/node" },
        ],
      },
      {
        text: "Concepts",
        items: [
          { text: "Sessions", link: "/concepts/sessions" },
          { text: "Providers", link: "/concepts/providers" },
          { text: "Adapters and migrations", link: "/concepts/adapters" },
          { text: "Accounts and linking", link: "/concepts/accounts" },
          { text: "Configuration", link: "/concepts/configuration" },
        ],
      },
      {
        text: "Capabilities",
        items: [
          { text: "Email sign-in", link: "/features/email" },
          { text: "Passwords", link: "/features/passwords" },
          { text: "Passkeys", link: "/features/passkeys" },
          { text: "Two-factor sign-in", link: "/features/two-factor" },
          { text: "Captcha", link: "/features/captcha" },
          { text: "API tokens", link: "/features/api-tokens" },
          { text: "Native apps", link: "/features/native-apps" },
          { text: "User fields", link: "/features/user-fields" },
          { text: "Built-in pages", link: "/features/pages" },
          { text: "Account page", link: "/features/account-page" },
          { text: "Plugins", link: "/features/plugins" },
          { text: "Permissions", link: "/features/permissions" },
          { text: "Organizations", link: "/features/organizations" },
          { text: "Enterprise SSO", link: "/features/sso" },
          { text: "Authorization server", link: "/features/oauth-provider" },
          { text: "Audit log", link: "/features/audit" },
          { text: "Admin tools", link: "/features/admin" },
          { text: "API keys", link: "/features/api-keys" },
        ],
      },
      {
        text: "Deployment and security",
        items: [
          { text: "Deployment", link: "/deploy/" },
          { text: "When storage fails", link: "/deploy/outages" },
          { text: "Security model", link: "/deploy/security" },
          { text: "Rate limits", link: "/deploy/rate-limits" },
        ],
      },
      {
        text: "Migrating from Auth.js",
        items: [
          { text: "Step by step", link: "/migrate/from-authjs" },
          { text: "What differs", link: "/migrate/differences" },
        ],
      },
      {
        text: "Reference",
        items: [
          { text: "Endpoints", link: "/reference/endpoints" },
          { text: "Built-in providers", link: "/reference/providers" },
          { text: "API reference", collapsed: true, items: apiSidebar() },
          {
            text: "Packages",
            collapsed: true,
            items: [
              readme("packages", "core", "@sesame/core"),
              readme("packages", "next", "@sesame/next"),
              readme("packages", "solid-start", "@sesame/solid-start"),
              readme("packages", "express", "@sesame/express"),
              readme("packages", "fastify", "@sesame/fastify"),
              readme("packages", "hono", "@sesame/hono"),
              readme("packages", "sveltekit", "@sesame/sveltekit"),
              readme("packages", "astro", "@sesame/astro"),
              readme("packages", "react-router", "@sesame/react-router"),
              readme("packages", "nuxt", "@sesame/nuxt"),
              readme("packages", "tanstack-start", "@sesame/tanstack-start"),
              readme("packages", "organizations", "@sesame/organizations"),
              readme("packages", "sso", "@sesame/sso"),
              readme("packages", "oauth-provider", "@sesame/oauth-provider"),
              readme("packages", "audit", "@sesame/audit"),
              readme("packages", "admin", "@sesame/admin"),
              readme("packages", "api-keys", "@sesame/api-keys"),
              readme("packages", "adapter-sqlite", "@sesame/adapter-sqlite"),
              readme("packages", "adapter-pg", "@sesame/adapter-pg"),
              readme("packages", "adapter-mysql", "@sesame/adapter-mysql"),
              readme("packages", "adapter-redis", "@sesame/adapter-redis"),
              readme("packages", "adapter-drizzle", "@sesame/adapter-drizzle"),
              readme("packages", "adapter-kysely", "@sesame/adapter-kysely"),
              readme("packages", "adapter-test", "@sesame/adapter-test"),
              readme("packages", "cli", "@sesame/cli"),
              readme("packages", "sql-common", "@sesame/sql-common"),
            ],
          },
          { text: "Examples", link: "/reference/examples" },
          { text: "Performance", link: "/reference/performance" },
          { text: "Choices where the contract is silent", link: "/reference/choices" },
          { text: "Contributing", link: "/reference/contributing" },
          { text: "Architecture", link: "/architecture" },
        ],
      },
    ],
  },
})
