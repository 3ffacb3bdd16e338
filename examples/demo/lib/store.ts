/**
 * The demo's one SQLite file: Sesame's tables (through `@sesame/adapter-sqlite`), the password
 * hashes of the password provider and the throttle's counters among them, the plugins' tables, and
 * the columns of the demo's user fields.
 *
 * `DATABASE_FILE` names the file (default `.data/sesame.db` in the app's folder, made on first use).
 */
import { mkdirSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import Database from "better-sqlite3"
import SqliteAdapter, { migrate } from "@sesame/adapter-sqlite"
import { modelsOf, type UserFieldDeclarations } from "@sesame/core"
import { userModel } from "@sesame/core/adapters"
import { admin } from "@sesame/admin"
import { apiKeys } from "@sesame/api-keys"
import { audit } from "@sesame/audit"
import { oauthProvider } from "@sesame/oauth-provider"
import { organizations, type InvitationMessage } from "@sesame/organizations"
import { auditTrail } from "@sesame/plugin-audit-trail"
import { sso } from "@sesame/sso"
import { demoAccount } from "./demo-identity"
import { withOutages } from "./outage"
import { livingRoomTv, partnerNotes, partnerRedirectUri, partnerSecret } from "./partner"
import { sendMail } from "./providers"

// The ignore comment: a path from the environment is not a file for Next.js to trace into the build.
const file = process.env.DATABASE_FILE ? resolve(/* turbopackIgnore: true */ process.env.DATABASE_FILE) : join(process.cwd(), ".data", "sesame.db")
mkdirSync(dirname(file), { recursive: true })

const database = new Database(file)
// Creates or upgrades Sesame's tables, and turns on foreign keys and WAL, before anything else runs.
// The home page can take it away for a few seconds (lib/outage.ts).
export const adapter = withOutages(SqliteAdapter(database))

/** Each user's recent sign-ins, shown on the home page. */
export const auditTrailPlugin = auditTrail({ keepDays: 30, maxEntries: 10 })

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** An invitation, emailed over the same SMTP server as the sign-in links (the mailbox under `npm start`). */
async function sendInvitation({ email, url, organization, invitedBy, roles }: InvitationMessage): Promise<void> {
  if (!sendMail) throw new Error("EMAIL_SERVER is not set, so invitations cannot be emailed: start the demo with npm start.")
  const inviter = invitedBy.name ?? invitedBy.email ?? "Someone"
  const subject = `Join ${organization.name} on the Sesame demo`
  const text = `${inviter} invites you to ${organization.name} as ${roles.join(", ")}.\n\nAccept the invitation:\n${url}\n\nIt works once, for 7 days. If you did not expect it, ignore this email.\n`
  const html = `<p>${escapeHtml(inviter)} invites you to <strong>${escapeHtml(organization.name)}</strong> as ${escapeHtml(roles.join(", "))}.</p><p><a href="${escapeHtml(url)}">Accept the invitation</a></p><p>It works once, for 7 days. If you did not expect it, ignore this email.</p>`
  await sendMail({ to: email, url, message: { subject, text, html } })
}

/**
 * Organizations (`@sesame/organizations`): members with roles, invitations by email, the active
 * organization in the session. The demo's own resource, `report`: members read reports, admins
 * (and owners) publish them too (app/organizations/reports).
 */
export const orgs = organizations({
  statements: { report: ["read", "publish"] },
  roles: { admin: { report: ["read", "publish"] }, member: { report: ["read"] } },
  invitations: { send: sendInvitation, acceptUrl: "/organizations/accept" },
  // Verified domains ask the local DNS server that `npm start` runs (records published on /dev/dns);
  // without it, the system's resolver, as in production.
  ...(process.env.DEV_DNS_SERVER ? { domains: { resolver: { servers: [process.env.DEV_DNS_SERVER] } } } : {}),
})

/**
 * Enterprise SSO (`@sesame/sso`): an organization's own identity provider, for the people of its
 * proven domains, who then join it as members. Under `npm start`, Acme Corp's identity provider
 * runs on this machine (http on 127.0.0.1), which the module refuses unless told otherwise: a
 * production app leaves `allowPrivateNetworks` off.
 */
export const ssoPlugin = sso({ organizations: orgs, allowPrivateNetworks: Boolean(process.env.DEMO_SSO_ISSUER) })

/**
 * The app as an OAuth 2.1 / OpenID Connect provider (`@sesame/oauth-provider`), its issuer
 * `<AUTH_URL>/oauth` (http://localhost:3000/api/auth/oauth): other apps sign in with the demo's
 * accounts. Two are registered here, both played by the page /dev/partner (lib/partner.ts): Partner
 * notes, a web app with a secret and one redirect URI, and Living-room TV, a device that signs in
 * with the device flow (a code entered at `<issuer>/device`).
 */
export const oauthServer = oauthProvider({
  clients: [
    { clientId: partnerNotes.clientId, name: partnerNotes.name, clientSecret: partnerSecret, redirectUris: [partnerRedirectUri()] },
    { clientId: livingRoomTv.clientId, name: livingRoomTv.name, grantTypes: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"] },
  ],
})

/**
 * The security log (`@sesame/audit`): every sign-in, failure, change and admin action, with who,
 * when, from where; the home page shows the signed-in user's own, and the demo account reads all.
 */
export const auditPlugin = audit({ keepDays: 90, canRead: (user) => user.email === demoAccount.email })

/**
 * Admin tools (`@sesame/admin`): the demo account is the demo's admin, at `/api/auth/admin`: find
 * users, suspend them, see the app as one of them.
 */
export const adminPlugin = admin({ admins: (user) => user.email === demoAccount.email })

/**
 * API keys (`@sesame/api-keys`): made on the account page (a user's) and on an organization's page
 * (the organization's, by its owners and admins), for scripts calling the demo's notes API
 * (app/api/notes) at most 5 times a minute; a user's key is also a session for `auth()`
 * (`sessions`). A suspended user's keys stop with the suspension.
 */
export const apiKeysPlugin = apiKeys({ scopes: ["notes:read", "notes:write"], organizations: orgs, sessions: true, rateLimit: { max: 5, window: 60 } })

/** The demo's plugins: the audit trail, organizations, API keys, enterprise SSO, the authorization server, the security log and the admin tools. */
export const plugins = [auditTrailPlugin, orgs, apiKeysPlugin, ssoPlugin, oauthServer, auditPlugin, adminPlugin]
/**
 * The demo's own user fields (`user.fields` in auth.ts): a role only the app sets, and the language
 * users choose on the home page (`input: true`).
 */
export const userFields = {
  role: { type: "string", default: "member" },
  language: { type: "string", optional: true, input: true },
} as const satisfies UserFieldDeclarations

// The plugins' tables, made (or completed) from their declarations (`modelsOf`: the organizations',
// the SSO connections', the authorization server's records, consents, keys and clients, and the
// core's table of session parts that keeps the active organization), and the user
// fields' columns added to the users table, before the first request (`sesame migrate --plugin`
// does the same).
await migrate(database, { models: [...modelsOf({ plugins }), userModel(userFields)] })
