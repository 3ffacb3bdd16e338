/**
 * The built-in admin pages, for apps that want admin tools without building their own screens: the
 * users, searched and paged, with a form that creates one (`GET <basePath>/admin`), and one user
 * with what the capabilities keep for them and what can be done to them
 * (`GET <basePath>/admin/view?userId=…`).
 *
 * They are plain HTML forms in the built-in pages' document (no script, the strict CSP, the app's
 * theme, five languages from `messages.ts`). Every form posts to `POST <basePath>/admin/act` with
 * an `action`, which runs the server function of that name (so the same checks: the pages only
 * leave out controls an admin could not use) and sends the browser back with `done=<action>` or
 * `error=<AdminError code>`, which the page says in words. A visitor who is not signed in goes to
 * sign in and comes back; a signed-in user who is not an admin gets a 403 page that shows nothing.
 *
 * @module
 */
import { html, type ModuleRequest, type ModuleResponse, type ModuleRoute, type SafeHtml } from "@sesame/core"
import { adminOf } from "./access.js"
import { banUser, unbanUser } from "./bans.js"
import { AdminError, adminErrorStatus, type AdminErrorCode } from "./errors.js"
import type { ResolvedAdminOptions } from "./options.js"
import { impersonate } from "./impersonation.js"
import { createUser, deleteUserAsAdmin, listUsers, resetRefusals, revokeUserSessions, sendPasswordReset, userDetails, type UserDetails } from "./users.js"

/** What the pages' forms post, and what each runs. */
const actions: Record<string, (options: ResolvedAdminOptions, request: ModuleRequest, userId: string) => Promise<unknown>> = {
  suspend: (options, r, userId) => banUser(options, r, userId, { reason: r.body.reason, until: untilField(r) }),
  restore: (options, r, userId) => unbanUser(options, r, userId),
  "end-sessions": (options, r, userId) => revokeUserSessions(options, r, userId),
  "send-reset": (options, r, userId) => sendPasswordReset(options, r, userId),
  // Answered by `impersonateAndGo`: it leaves the admin pages.
  impersonate: (options, r, userId) => impersonate(options, r, userId),
  delete: (options, r, userId) => {
    if (r.body.confirm !== "on") throw new AdminError("InvalidInput", "Tick the box to confirm the deletion.")
    return deleteUserAsAdmin(options, r, userId)
  },
}

/** `until` from the form's `datetime-local` field, read as UTC (as the label says); empty: none. */
function untilField(request: ModuleRequest): string | undefined {
  const value = request.body.until
  if (typeof value !== "string" || value === "") return undefined
  // "2031-03-02T10:00" has no zone: the page says the time is UTC.
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value}Z` : value
}

export function pageRoutes(options: ResolvedAdminOptions): Record<string, ModuleRoute> {
  return {
    "GET admin": { run: (r) => asAdmin(options, r, () => usersPage(options, r)) },
    "GET admin/view": { run: (r) => asAdmin(options, r, () => userPage(options, r)) },
    "POST admin/act": {
      async run(request) {
        const base = basePath(request)
        if (request.body.action === "create") return createAndShow(options, request, base)
        const name = typeof request.body.action === "string" && Object.hasOwn(actions, request.body.action) ? request.body.action : undefined
        const userId = typeof request.body.userId === "string" ? request.body.userId : ""
        if (!name) return { status: 400, body: { error: "InvalidInput", message: "`action` is not one of the pages' actions." } }
        if (name === "impersonate") return impersonateAndGo(options, request, userId, base)
        // A deleted user has no page left: back to the list.
        const back = new URL(name === "delete" ? `${base}/admin` : `${base}/admin/view`, request.url.origin)
        if (name !== "delete") back.searchParams.set("userId", userId)
        try {
          await actions[name]!(options, request, userId)
          back.searchParams.set("done", name)
        } catch (error) {
          if (!(error instanceof AdminError)) throw error
          if (name === "delete") back.pathname = `${base}/admin/view`
          back.searchParams.set("userId", userId)
          back.searchParams.set("error", error.code)
        }
        return { redirect: `${back.pathname}${back.search}` }
      },
    },
  }
}

/**
 * Creates the user of the list page's form and shows them (saying when the requested reset link
 * did not go); a refusal goes back to the list, which says why.
 */
async function createAndShow(options: ResolvedAdminOptions, request: ModuleRequest, base: string): Promise<ModuleResponse> {
  const checked = (name: string) => request.body[name] === "on"
  try {
    const { user, passwordReset } = await createUser(options, request, {
      email: request.body.email,
      name: request.body.name,
      emailVerified: checked("emailVerified"),
      sendPasswordReset: checked("sendPasswordReset"),
    })
    const refused = passwordReset && passwordReset !== "sent" ? resetRefusals[passwordReset][0] : undefined
    return { redirect: `${base}/admin/view?${new URLSearchParams({ userId: user.id, ...(refused ? { error: refused } : { done: "create" }) })}` }
  } catch (error) {
    if (!(error instanceof AdminError)) throw error
    return { redirect: `${base}/admin?${new URLSearchParams({ error: error.code })}` }
  }
}

/**
 * Starts impersonating and opens the app's home page as the user; a refusal goes back to the
 * user's page, which says why.
 */
async function impersonateAndGo(options: ResolvedAdminOptions, request: ModuleRequest, userId: string, base: string): Promise<ModuleResponse> {
  try {
    await impersonate(options, request, userId)
    return { redirect: "/" }
  } catch (error) {
    if (!(error instanceof AdminError)) throw error
    return { redirect: `${base}/admin/view?${new URLSearchParams({ userId, error: error.code })}` }
  }
}

/** `<basePath>`, from the request's own path (one of the routes above). */
function basePath(request: ModuleRequest): string {
  return request.url.pathname.replace(/\/admin(?:\/(?:view|act))?$/, "")
}

/** Runs `page` for an admin; a visitor goes to sign in and comes back, anyone else gets a 403 that shows nothing. */
async function asAdmin(options: ResolvedAdminOptions, request: ModuleRequest, page: () => Promise<ModuleResponse>): Promise<ModuleResponse> {
  try {
    await adminOf(options, request)
    return await page()
  } catch (error) {
    if (!(error instanceof AdminError)) throw error
    if (error.code === "NotSignedIn") return { redirect: `${basePath(request)}/signin?callbackUrl=${encodeURIComponent(request.url.href)}` }
    return shell(request, request.text("admin.title.users"), html`<div class="alert" role="alert">${errorText(request, error.code)}</div>`, adminErrorStatus[error.code])
  }
}

function shell(request: ModuleRequest, title: string, body: SafeHtml, status = 200): ModuleResponse {
  return { status, page: { title, width: "wide", body: html`<h1>${title}</h1>${outcome(request)}${body}` } }
}

/** The notice or alert for `done=` or `error=`: only known codes, in words, never the value itself. */
function outcome(request: ModuleRequest): SafeHtml | "" {
  const { done, error } = request.query
  if (error !== undefined && Object.hasOwn(adminErrorStatus, error)) return html`<div class="alert" role="alert">${errorText(request, error as AdminErrorCode)}</div>`
  if (done !== undefined && (Object.hasOwn(actions, done) || done === "create")) return html`<div class="notice" role="status">${request.text(`admin.done.${done}`)}</div>`
  return ""
}

const errorText = (request: ModuleRequest, code: AdminErrorCode): string => request.text(`admin.error.${code}`)

const dateTime = (request: ModuleRequest, date: Date): string =>
  `${new Intl.DateTimeFormat(request.lang, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(date)} UTC`

/** `GET admin`: the users, searched by address or name, a page at a time. */
async function usersPage(options: ResolvedAdminOptions, request: ModuleRequest): Promise<ModuleResponse> {
  const search = typeof request.query.q === "string" ? request.query.q.slice(0, 200) : ""
  const cursor = typeof request.query.cursor === "string" ? request.query.cursor : undefined
  const base = basePath(request)
  let found: Awaited<ReturnType<typeof listUsers>>
  try {
    found = await listUsers(options, request, { search, limit: 25, ...(cursor ? { cursor } : {}) })
  } catch (error) {
    // A cursor that is not one of ours: start again from the first page.
    if (!(error instanceof AdminError) || error.code !== "InvalidInput") throw error
    found = await listUsers(options, request, { search, limit: 25 })
  }
  const next = found.next ? `${base}/admin?${new URLSearchParams({ ...(search ? { q: search } : {}), cursor: found.next })}` : null
  const rows = found.users.map(
    (user) => html`<tr>
      <td><a href="${`${base}/admin/view?${new URLSearchParams({ userId: user.id })}`}">${user.email}</a></td>
      <td>${user.name ?? ""}</td>
      <td>${[user.admin ? request.text("admin.badge.admin") : "", user.suspended ? request.text("admin.badge.suspended") : ""].filter(Boolean).join(", ")}</td>
    </tr>`,
  )
  return shell(
    request,
    request.text("admin.title.users"),
    html`<form method="get" action="${`${base}/admin`}" role="search">
        <label for="admin-q">${request.text("admin.search.label")}</label>
        <input id="admin-q" name="q" type="search" value="${search}" maxlength="200" />
        <button type="submit">${request.text("admin.search.submit")}</button>
      </form>
      ${found.users.length === 0
        ? html`<p>${request.text("admin.users.none")}</p>`
        : html`<table>
            <caption>${request.text("admin.users.caption")}</caption>
            <thead><tr><th scope="col">${request.text("admin.users.email")}</th><th scope="col">${request.text("admin.users.name")}</th><th scope="col">${request.text("admin.users.status")}</th></tr></thead>
            <tbody>${rows}</tbody>
          </table>`}
      ${next ? html`<p><a href="${next}">${request.text("admin.users.next")}</a></p>` : ""}
      <h2>${request.text("admin.create.heading")}</h2>
      <form method="post" action="${`${base}/admin/act`}">
        <input type="hidden" name="csrfToken" value="${await request.csrfToken()}" /><input type="hidden" name="action" value="create" />
        <label for="admin-new-email">${request.text("admin.create.email")}</label>
        <input id="admin-new-email" name="email" type="email" required maxlength="320" autocomplete="off" />
        <label for="admin-new-name">${request.text("admin.create.name")}</label>
        <input id="admin-new-name" name="name" type="text" maxlength="200" autocomplete="off" />
        <div class="choices">
          <label for="admin-new-verified"><input id="admin-new-verified" name="emailVerified" type="checkbox" />${request.text("admin.create.verified")}</label>
          <label for="admin-new-reset"><input id="admin-new-reset" name="sendPasswordReset" type="checkbox" />${request.text("admin.create.reset")}</label>
        </div>
        <button type="submit">${request.text("admin.create.submit")}</button>
      </form>`,
  )
}

/** `GET admin/view?userId=`: one user, and the forms for what an admin may do to them. */
async function userPage(options: ResolvedAdminOptions, request: ModuleRequest): Promise<ModuleResponse> {
  const base = basePath(request)
  const userId = request.query.userId ?? ""
  let details: UserDetails
  try {
    details = await userDetails(options, request, userId)
  } catch (error) {
    if (!(error instanceof AdminError)) throw error
    return shell(request, request.text("admin.title.user"), html`<div class="alert" role="alert">${errorText(request, error.code)}</div>${backLink(request)}`, adminErrorStatus[error.code])
  }
  const { user, ban } = details
  const csrfToken = await request.csrfToken()
  const act = `${base}/admin/act`
  const hidden = (action: string) => html`<input type="hidden" name="csrfToken" value="${csrfToken}" /><input type="hidden" name="action" value="${action}" /><input type="hidden" name="userId" value="${user.id}" />`
  // Controls the admin could not use are left out (the action would refuse them anyway).
  const me = await request.user()
  const actionable = me?.id !== user.id && (options.actOnAdmins || !details.admin)
  // Impersonating follows its own rule about admins; the form is left out where it would be refused.
  const impersonable = me?.id !== user.id && (options.impersonation.admins || !details.admin) && !details.suspended
  const accounts = details.accounts.map((a) => html`<li>${a.provider} (${a.type})</li>`)
  const sessions = details.sessions.map(
    (s) => html`<li>${s.createdAt ? dateTime(request, s.createdAt) : "?"} — ${s.userAgent ?? request.text("admin.user.unknown-device")}</li>`,
  )
  return shell(
    request,
    user.email,
    html`<dl>
        <dt>${request.text("admin.user.name")}</dt><dd>${user.name ?? "—"}</dd>
        <dt>${request.text("admin.user.verified")}</dt><dd>${user.emailVerified ? dateTime(request, user.emailVerified) : request.text("admin.user.no")}</dd>
        <dt>${request.text("admin.user.role")}</dt><dd>${details.admin ? request.text("admin.badge.admin") : request.text("admin.user.member")}</dd>
        <dt>${request.text("admin.user.status")}</dt>
        <dd>${details.suspended
          ? html`${request.text("admin.badge.suspended")}${ban?.until ? html` — ${request.text("admin.user.until", { date: dateTime(request, ban.until) })}` : ""}${ban?.reason ? html`<br />${request.text("admin.user.reason")}: ${ban.reason}` : ""}`
          : request.text("admin.user.active")}</dd>
      </dl>
      <h2>${request.text("admin.user.accounts")}</h2>
      ${accounts.length ? html`<ul>${accounts}</ul>` : html`<p>—</p>`}
      <h2>${request.text("admin.user.sessions")}</h2>
      ${sessions.length ? html`<ul>${sessions}</ul>` : html`<p>${request.text("admin.user.no-sessions")}</p>`}
      ${details.about.map((facts) => html`<h2>${facts.title}</h2>${facts.items.length ? html`<ul>${facts.items.map((item) => html`<li>${item}</li>`)}</ul>` : html`<p>—</p>`}`)}
      ${actionable
        ? html`<h2>${request.text("admin.user.actions")}</h2>
          ${details.suspended
            ? html`<form method="post" action="${act}">${hidden("restore")}<button type="submit">${request.text("admin.action.restore")}</button></form>`
            : html`<form method="post" action="${act}">${hidden("suspend")}
                <label for="admin-reason">${request.text("admin.action.reason")}</label>
                <textarea id="admin-reason" name="reason" maxlength="500" rows="2"></textarea>
                <label for="admin-until">${request.text("admin.action.until")}</label>
                <input id="admin-until" name="until" type="datetime-local" />
                <button type="submit">${request.text("admin.action.suspend")}</button>
              </form>`}
          <form method="post" action="${act}">${hidden("end-sessions")}<button type="submit">${request.text("admin.action.end-sessions")}</button></form>
          <form method="post" action="${act}">${hidden("send-reset")}<button type="submit">${request.text("admin.action.send-reset")}</button></form>
          ${!impersonable ? "" : html`<form method="post" action="${act}">${hidden("impersonate")}<button type="submit">${request.text("admin.action.impersonate", { minutes: String(Math.round(options.impersonation.maxAge / 60)) })}</button></form>`}
          <h2>${request.text("admin.action.delete")}</h2>
          <form method="post" action="${act}">${hidden("delete")}
            <div class="choices"><label for="admin-confirm"><input id="admin-confirm" name="confirm" type="checkbox" />${request.text("admin.action.confirm-delete", { email: user.email })}</label></div>
            <button type="submit">${request.text("admin.action.delete")}</button>
          </form>`
        : ""}
      ${backLink(request)}`,
  )
}

const backLink = (request: ModuleRequest): SafeHtml => html`<p class="links"><a href="${`${basePath(request)}/admin`}">${request.text("admin.back")}</a></p>`
