/** The configuration the tests run: database sessions, a credentials provider that makes its users, the plugin. */
import type { AuthConfig } from "@sesame/core"
import type { Adapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { auditTrail, type AuditTrailOptions } from "../src/index.js"

export function testConfig(adapter: Adapter, options?: AuditTrailOptions, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: "audit-trail-test-secret-0123456789-abcdefghijklmnop",
    trustHost: true,
    adapter,
    providers: [
      Credentials({
        createUser: true,
        credentials: { username: { label: "Username" } },
        // Any name signs in (tests only): the user is `<name>@example.com`, made at the first sign-in.
        authorize: async ({ username }) => (typeof username === "string" && username ? { id: `u-${username}`, email: `${username}@example.com`, name: username } : null),
      }),
    ],
    plugins: [auditTrail(options)],
    ...overrides,
  }
}
