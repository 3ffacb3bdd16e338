/**
 * `POST signup/:password-provider` (the dispatcher has checked the CSRF token): creating an
 * account with an address, a password and an optional name.
 *
 * The address and the password are checked first (a malformed address or a password the policy
 * refuses goes back to the form with the reason; the password is never put in a URL). Then the
 * answer does not depend on whether the address has an account:
 * - a new address: the user and its password hash are stored, and a confirmation link is sent
 *   (or, when the provider does not require confirmation, the user is signed in at once);
 * - a taken address: nothing is stored, and its owner gets an email saying someone tried, with a
 *   link to choose a new password.
 * Both end on "check your email", and both hash the password first, so the two take about as long.
 * A user who signed up but never confirmed counts as taken: a second sign-up must not replace the
 * password of the first (the owner's reset link is the way in).
 *
 * @module
 */
import { emit } from "../events.js"
import { emitSecurity } from "../security-events.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { signIn } from "../account/sign-in.js"
import { createUnprovenUser } from "../account/unproven.js"
import { formUserFields, newUserFields, UserFieldValueError } from "../user/fields.js"
import { typedAddress } from "./input.js"
import { emailLink } from "./mail.js"
import { checkNewPassword } from "./policy.js"
import type { PasswordProvider } from "./provider.js"
import { passwordPageUrl } from "./urls.js"
import { storePassword } from "./storage.js"

/** The longest name kept; a longer one is cut. */
const maxNameLength = 200

function typedName(value: unknown): string | null {
  if (typeof value !== "string") return null
  const name = value.normalize("NFC").replace(/[\p{Cc}]/gu, "").trim().slice(0, maxNameLength)
  return name.length > 0 ? name : null
}

export async function passwordSignUp(ctx: RequestContext, provider: PasswordProvider): Promise<InternalResponse> {
  // The captcha first, when it guards sign-up: before any check of the form, a hash or a lookup.
  const captchaRefusal = await ctx.config.hooks.formGuard?.check(ctx, "sign-up")
  if (captchaRefusal) return captchaRefusal
  const { adapter, config: options } = provider
  const back = async (query: Record<string, string | undefined>): Promise<InternalResponse> => ({
    redirect: await passwordPageUrl(ctx, "signup", query),
    cookies: ctx.setCookies,
  })
  const email = typedAddress(provider, ctx.body.email)
  // What was typed comes back to the form, but never the password.
  const name = typedName(ctx.body.name) ?? undefined
  if (!email) return back({ error: "invalid-email", name })
  const check = await checkNewPassword(typeof ctx.body.password === "string" ? ctx.body.password : "", provider.policy, {
    email,
    logger: ctx.config.logger,
  })
  if (!check.ok) return back({ error: check.reason, email, name })
  // The app's user fields a user may set (`input: true`), from the form; never the others.
  let fields: Record<string, unknown>
  try {
    fields = newUserFields(ctx.config.userFields, formUserFields(ctx.config.userFields, ctx.body))
  } catch (error) {
    if (!(error instanceof UserFieldValueError)) throw error
    return back({ error: "invalid-field", email, name })
  }

  const hash = await provider.hasher.hash(check.password)
  const sent = () => back({ sent: "1" })
  const taken = await adapter.getUserByEmail(email)
  if (taken) {
    await emailLink(ctx, provider, "account-exists", { id: taken.id, email })
    return sent()
  }
  // Unproven even when the provider lets it sign in at once: nothing has proved the address yet,
  // and its owner's later proof (an email link, a reset link) must set aside whoever signed up
  // with it (account/decide.ts).
  const user = { ...fields, id: crypto.randomUUID(), email, name: name ?? null, image: null, emailVerified: null }
  let created
  try {
    created = await adapter.transaction(async (tx) => {
      const stored = await createUnprovenUser(tx, user)
      await storePassword(tx, { userId: stored.id, hash, updatedAt: new Date() })
      return stored
    })
  } catch (error) {
    // Two sign-ups with one address at once: the database's unique address refused the second.
    const winner = await adapter.getUserByEmail(email)
    if (!winner) throw error
    await emailLink(ctx, provider, "account-exists", { id: winner.id, email })
    return sent()
  }
  await emit(ctx.config, "createUser", { user: created })
  await emitSecurity(ctx.config, ctx.headers, { type: "user.created", userId: created.id, provider: provider.id })
  if (!options.requireEmailVerification) return signIn(ctx, { kind: "password", provider, user: created, isNewUser: true })
  await emailLink(ctx, provider, "verify-email", { id: created.id, email })
  return sent()
}
