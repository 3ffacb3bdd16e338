/**
 * The account page's endpoints: `GET account` shows the page; each change is a
 * `POST account/<action>` (same-origin and CSRF checked by the dispatcher, as every POST row) that
 * sends the browser back to `account#<section>` with a notice or an error code. A visitor who is
 * not signed in is sent to sign in, to come back here.
 *
 * The changes run the same server functions an app's own account page calls (`fromEndpoint`,
 * `http/server-context.ts`; loaded through `server-functions.ts`), so each rule stays where it is
 * decided: who may remove a way in
 * (`account/ways-in.ts`), what a password change ends, whose session or passkey an id names.
 * What weakens the account (a new address, a new password where there was none, removing a
 * passkey or a linked account, deleting the account) needs a recent sign-in (`session/fresh.ts`):
 * without one the browser goes through the step-up (`reauthenticate`) and back to the section.
 *
 * @module
 */
import type { AccountInfo } from "../account/management.js"
import { currentAdapterUser } from "../account/passkeys.js"
import type { AdapterUser } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { BadRequest } from "../errors.js"
import { emit } from "../events.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { pluginAccountSections } from "../modules/account-sections.js"
import { customPage, signInPageUrl, translatorFor } from "../pages/where.js"
import { emitSecurity } from "../security-events.js"
import { recentlySignedIn } from "../session/fresh.js"
import { signedInUserId } from "../session/index.js"
import { endSession } from "../session/sign-out.js"
import { stepUpUrl } from "../two-factor/step-up.js"
import { countRecoveryCodes, storedTwoFactor } from "../two-factor/storage.js"
import type { SessionInfo } from "../session/management.js"
import { formUserFields, UserFieldValueError } from "../user/fields.js"
import { passkeyScriptUrl } from "../webauthn/script.js"
import { accountUrl, confirmEmailChange, emailConfirmUrl, emailSender, linkOf, requestEmailChangeFor } from "./email-change.js"
import { sectionNames, type ResolvedAccountPage, type SectionName } from "./options.js"
import { accountPage, confirmEmailPage, type AccountPageParams, type ProfileField, type SessionsView } from "./page.js"

/** The server functions, loaded on first use (see `server-functions.ts` for why not statically). */
const serverFunctions = () => import("./server-functions.js")

interface Me {
  settings: ResolvedAccountPage
  adapter: CheckedAdapter
  user: AdapterUser
}

/** The page's settings; a `404` when it is off. */
function settingsOf(ctx: RequestContext): { settings: ResolvedAccountPage; adapter: CheckedAdapter } {
  const settings = ctx.config.accountPage
  const adapter = ctx.config.adapter
  if (!settings || !adapter) throw new BadRequest("The account page is off.", 404)
  return { settings, adapter }
}

const goTo = (ctx: RequestContext, url: string): InternalResponse => ({ redirect: url, cookies: ctx.setCookies })

/** Back to `section` with a notice or an error. */
const back = (ctx: RequestContext, section: SectionName, outcome: { notice: string } | { error: string }): InternalResponse =>
  goTo(ctx, accountUrl(ctx, { ...outcome, in: section }, section))

/** Through the step-up, back to `section`. */
const stepUp = (ctx: RequestContext, section: SectionName): InternalResponse => goTo(ctx, stepUpUrl(ctx, accountUrl(ctx, {}, section)))

/** The signed-in user, or the sign-in page that comes back to the account page. */
async function me(ctx: RequestContext): Promise<Me | InternalResponse> {
  const { settings, adapter } = settingsOf(ctx)
  const user = await currentAdapterUser(ctx)
  if (!user) {
    // Signed in as someone the adapter does not keep (a credentials user of JWT sessions, a user
    // without an address): sending them to sign in would bring them straight back, forever.
    if ((await signedInUserId(ctx)) !== null) throw new BadRequest("The account page is for users the adapter stores, with an email address.", 404)
    const signIn = new URL(signInPageUrl(ctx))
    signIn.searchParams.set("callbackUrl", accountUrl(ctx))
    return goTo(ctx, signIn.href)
  }
  return { settings, adapter, user }
}

/** Runs `change` for the signed-in user, when `section` is on; else where to go. */
async function change(ctx: RequestContext, section: SectionName, run: (me: Me) => Promise<InternalResponse>): Promise<InternalResponse> {
  const found = await me(ctx)
  if (!("user" in found)) return found
  if (!found.settings.sections[section]) throw new BadRequest("This section of the account page is off.", 404)
  return run(found)
}

const text = (value: unknown): string => (typeof value === "string" ? value : "")

/** A stored value as form text. */
function formText(value: unknown): string {
  if (value === null || value === undefined) return ""
  if (value instanceof Date) return value.toISOString()
  if (typeof value === "object") return JSON.stringify(value)
  return String(value)
}

function profileFields(ctx: RequestContext, user: AdapterUser): ProfileField[] {
  const { declarations, input } = ctx.config.userFields
  return input.map((name) => ({
    name,
    type: declarations[name]!.type,
    value: formText((user as unknown as Record<string, unknown>)[name]),
  }))
}

const webAuthnProvider = (ctx: RequestContext) => [...ctx.config.providers.values()].find((p) => p.type === "webauthn")
const passwordProvider = (ctx: RequestContext) => [...ctx.config.providers.values()].find((p) => p.type === "password")

function sessionsView(ctx: RequestContext, list: () => Promise<SessionInfo[] | null>): Promise<SessionsView> {
  if (ctx.config.session.strategy === "database") return list().then((sessions) => ({ mode: "database", list: sessions ?? [] }))
  return Promise.resolve(ctx.config.sessionRevocation ? { mode: "revocation" } : { mode: "none" })
}

/** `GET account`. */
export async function showAccount(ctx: RequestContext): Promise<InternalResponse> {
  // The app's own page wins, whether or not the built-in one is on.
  const custom = customPage(ctx, "account", {})
  if (custom) return custom
  const found = await me(ctx)
  if (!("user" in found)) return found
  const { settings, adapter, user } = found
  const on = settings.sections
  const { hasPassword, listAccounts, listPasskeys, listSessions, fromEndpoint } = await serverFunctions()
  const call = fromEndpoint(ctx)
  const t = translatorFor(ctx)
  const { token } = await ctx.csrf()
  const recent = await recentlySignedIn(ctx)
  const basePath = new URL(ctx.authUrl).pathname
  const params: AccountPageParams = {
    csrfToken: token,
    theme: ctx.config.theme,
    authUrl: ctx.authUrl,
    who: user.email || user.name || user.id,
    recent,
    stepUpUrl: stepUpUrl(ctx, accountUrl(ctx)),
    backUrl: `${ctx.origin}/`,
    signOutUrl: `${ctx.authUrl}/signout`,
    notice: ctx.query.notice,
    error: ctx.query.error,
    in: ctx.query.in,
  }
  if (on.profile) params.profile = { name: user.name ?? "", image: user.image ?? "", fields: profileFields(ctx, user) }
  if (on.email && emailSender(ctx.config)) params.email = { current: user.email || null }
  if (on.password && passwordProvider(ctx)) params.password = { has: (await hasPassword(...call)) === true }
  const passkey = webAuthnProvider(ctx)
  if (on.passkeys && passkey && adapter.has("listAuthenticatorsByUserId")) {
    params.passkeys = {
      list: (await listPasskeys(...call)) ?? [],
      provider: passkey.id,
      basePath,
      script: passkeyScriptUrl(basePath),
      callbackUrl: accountUrl(ctx, { notice: "passkey-added", in: "passkeys" }, "passkeys"),
    }
  }
  const twoFactor = ctx.config.twoFactor
  if (on.twoFactor && twoFactor) {
    const stored = await storedTwoFactor(twoFactor.adapter, user.id)
    params.twoFactor = {
      method: stored?.method ?? null,
      recoveryCodesLeft: stored ? await countRecoveryCodes(twoFactor.adapter, user.id) : 0,
      setupUrl: `${ctx.authUrl}/two-factor/setup`,
    }
  }
  const federated = [...ctx.config.providers.values()].filter((p) => p.type === "oauth" || p.type === "oidc")
  if (on.linkedAccounts && federated.length > 0 && adapter.has("listAccountsByUserId")) {
    // Passkeys' accounts are listed with the passkeys.
    const accounts = ((await listAccounts(...call)) ?? []).filter((a: AccountInfo) => a.type === "oauth" || a.type === "oidc")
    params.linkedAccounts = {
      accounts,
      linkable: federated.filter((p) => !accounts.some((a) => a.provider === p.id)).map((p) => ({ id: p.id, name: p.name })),
      callbackUrl: accountUrl(ctx, {}, "linkedAccounts"),
    }
  }
  if (on.sessions) params.sessions = await sessionsView(ctx, () => listSessions(...call))
  if (on.plugins) params.plugins = await pluginAccountSections(ctx)
  if (on.delete) params.delete = true
  const page = accountPage(params, sectionNames, t)
  return { ...page, cookies: ctx.setCookies }
}

/** The name and picture of a profile form; a refusal's code when the picture is not an https URL. */
function nameAndImage(body: Readonly<Record<string, unknown>>): { name: string | null; image: string | null } | "InvalidImage" | "InvalidField" {
  const name = text(body.name).trim()
  const image = text(body.image).trim()
  if (name.length > 200 || /\p{Cc}/u.test(name) || image.length > 2048) return "InvalidField"
  if (image) {
    try {
      if (new URL(image).protocol !== "https:") return "InvalidImage"
    } catch {
      return "InvalidImage"
    }
  }
  return { name: name || null, image: image || null }
}

/** `POST account/profile`: the name, the picture and the app's fields users may set. */
export function saveProfile(ctx: RequestContext): Promise<InternalResponse> {
  return change(ctx, "profile", async ({ adapter, user }) => {
    const basics = nameAndImage(ctx.body)
    if (typeof basics === "string") return back(ctx, "profile", { error: basics })
    let fields: Record<string, unknown>
    try {
      fields = formUserFields(ctx.config.userFields, ctx.body)
    } catch (error) {
      if (error instanceof UserFieldValueError) return back(ctx, "profile", { error: "InvalidField" })
      throw error
    }
    if (basics.name !== (user.name ?? null) || basics.image !== (user.image ?? null)) {
      const updated = await adapter.updateUser({ id: user.id, name: basics.name, image: basics.image })
      await emit(ctx.config, "updateUser", { user: updated })
      await emitSecurity(ctx.config, ctx.headers, { type: "user.updated", userId: user.id, details: { fields: ["name", "image"] } })
    }
    if (Object.keys(fields).length > 0) {
      const { updateUserFields, fromEndpoint } = await serverFunctions()
      const result = await updateUserFields(...fromEndpoint(ctx), fields)
      if (!result.updated) return back(ctx, "profile", { error: result.reason === "InvalidField" ? "InvalidField" : "NotFound" })
    }
    return back(ctx, "profile", { notice: "profile" })
  })
}

/** `POST account/email`: a link to the new address. */
export function askEmailChange(ctx: RequestContext): Promise<InternalResponse> {
  return change(ctx, "email", async ({ adapter, user }) => {
    const result = await requestEmailChangeFor(ctx, adapter, user, ctx.body.email)
    if (result.requested) return back(ctx, "email", { notice: "email-sent" })
    if (result.reason === "SignInTooOld") return stepUp(ctx, "email")
    return back(ctx, "email", { error: result.reason })
  })
}

/** `GET account/email-confirm`: the link's page, one button. */
export async function showEmailConfirm(ctx: RequestContext): Promise<InternalResponse> {
  settingsOf(ctx)
  const link = linkOf(ctx.query)
  const { token } = await ctx.csrf()
  const page = confirmEmailPage(
    {
      csrfToken: token,
      theme: ctx.config.theme,
      action: emailConfirmUrl(ctx),
      link: link ?? { token: "", email: "", user: "" },
      host: new URL(ctx.origin).host,
      error: link ? undefined : "InvalidLink",
      accountUrl: accountUrl(ctx),
    },
    translatorFor(ctx),
  )
  return { ...page, cookies: ctx.setCookies }
}

/** `POST account/email-confirm`: the change itself. */
export async function submitEmailConfirm(ctx: RequestContext): Promise<InternalResponse> {
  const { adapter } = settingsOf(ctx)
  const link = linkOf(ctx.body)
  const result = link ? await confirmEmailChange(ctx, adapter, link) : ({ changed: false, reason: "InvalidLink" } as const)
  if (result.changed) return goTo(ctx, accountUrl(ctx, { notice: "email-changed", in: "email" }, "email"))
  const { token } = await ctx.csrf()
  const page = confirmEmailPage(
    {
      csrfToken: token,
      theme: ctx.config.theme,
      action: emailConfirmUrl(ctx),
      link: { token: "", email: "", user: "" },
      host: new URL(ctx.origin).host,
      error: result.reason,
      accountUrl: accountUrl(ctx),
    },
    translatorFor(ctx),
  )
  return { ...page, cookies: ctx.setCookies }
}

/** `POST account/password`: changes the password (with the current one), or sets a first one (after a recent sign-in). */
export function savePassword(ctx: RequestContext): Promise<InternalResponse> {
  return change(ctx, "password", async () => {
    if (!passwordProvider(ctx)) throw new BadRequest("There is no password provider.", 404)
    const { changePassword, hasPassword, setPassword, fromEndpoint } = await serverFunctions()
    const call = fromEndpoint(ctx)
    if (await hasPassword(...call)) {
      const result = await changePassword(...call, { currentPassword: text(ctx.body.currentPassword), newPassword: text(ctx.body.newPassword) })
      return result.changed ? back(ctx, "password", { notice: "password-changed" }) : back(ctx, "password", { error: result.reason })
    }
    const result = await setPassword(...call, { newPassword: text(ctx.body.newPassword) })
    if (result.set) return back(ctx, "password", { notice: "password-set" })
    return result.reason === "SignInTooOld" ? stepUp(ctx, "password") : back(ctx, "password", { error: result.reason })
  })
}

/** `POST account/passkey-rename`. */
export function renamePasskeyAction(ctx: RequestContext): Promise<InternalResponse> {
  return change(ctx, "passkeys", async () => {
    const { renamePasskey, fromEndpoint } = await serverFunctions()
    let renamed
    try {
      renamed = await renamePasskey(...fromEndpoint(ctx), text(ctx.body.id), text(ctx.body.name))
    } catch (error) {
      if (error instanceof TypeError) return back(ctx, "passkeys", { error: "InvalidName" })
      throw error
    }
    return renamed ? back(ctx, "passkeys", { notice: "passkey-renamed" }) : back(ctx, "passkeys", { error: "NotFound" })
  })
}

/** `POST account/passkey-remove`: never the last way in; after a recent sign-in. */
export function removePasskey(ctx: RequestContext): Promise<InternalResponse> {
  return change(ctx, "passkeys", async () => {
    if (!(await recentlySignedIn(ctx))) return stepUp(ctx, "passkeys")
    const { deletePasskey, fromEndpoint } = await serverFunctions()
    const result = await deletePasskey(...fromEndpoint(ctx), text(ctx.body.id))
    return result.deleted ? back(ctx, "passkeys", { notice: "passkey-removed" }) : back(ctx, "passkeys", { error: result.reason })
  })
}

/** `POST account/unlink`: never the last way in; after a recent sign-in. */
export function unlink(ctx: RequestContext): Promise<InternalResponse> {
  return change(ctx, "linkedAccounts", async () => {
    if (!(await recentlySignedIn(ctx))) return stepUp(ctx, "linkedAccounts")
    const { unlinkAccount, fromEndpoint } = await serverFunctions()
    const result = await unlinkAccount(...fromEndpoint(ctx), { provider: text(ctx.body.provider), providerAccountId: text(ctx.body.providerAccountId) })
    return result.unlinked ? back(ctx, "linkedAccounts", { notice: "unlinked" }) : back(ctx, "linkedAccounts", { error: result.reason })
  })
}

/** `POST account/session-revoke`: one of the user's database sessions, by its public id. */
export function revokeOne(ctx: RequestContext): Promise<InternalResponse> {
  return change(ctx, "sessions", async () => {
    if (ctx.config.session.strategy !== "database") throw new BadRequest("Sessions are not stored.", 404)
    const { revokeSession, fromEndpoint } = await serverFunctions()
    const revoked = await revokeSession(...fromEndpoint(ctx), text(ctx.body.id))
    return revoked ? back(ctx, "sessions", { notice: "session-revoked" }) : back(ctx, "sessions", { error: "NotFound" })
  })
}

/** `POST account/sessions-revoke`: every session but this one (JWT sessions: with `session.revocation`). */
export function revokeOthers(ctx: RequestContext): Promise<InternalResponse> {
  return change(ctx, "sessions", async () => {
    if (ctx.config.session.strategy !== "database" && !ctx.config.sessionRevocation) throw new BadRequest("Sessions cannot be ended here.", 404)
    const { revokeOtherSessions, fromEndpoint } = await serverFunctions()
    await revokeOtherSessions(...fromEndpoint(ctx))
    return back(ctx, "sessions", { notice: "sessions-revoked" })
  })
}

/** `POST account/delete`: with the box ticked, after a recent sign-in; signs this browser out. */
export function deleteAccount(ctx: RequestContext): Promise<InternalResponse> {
  return change(ctx, "delete", async () => {
    if (ctx.body.confirm !== "yes") return back(ctx, "delete", { error: "ConfirmDelete" })
    const { deleteUser, fromEndpoint } = await serverFunctions()
    const result = await deleteUser(...fromEndpoint(ctx))
    if (!result.deleted) return result.reason === "SignInTooOld" ? stepUp(ctx, "delete") : back(ctx, "delete", { error: "NotFound" })
    await endSession(ctx)
    return goTo(ctx, `${ctx.origin}/`)
  })
}
