/**
 * The built-in pages, for apps that want organizations without building their own screens: the
 * organization switcher with the create form (`GET <basePath>/organization`), one organization's
 * members, roles and invitations sent (`GET <basePath>/organization/manage?organizationId=…`), and
 * the invitations the signed-in user received (`GET <basePath>/organization/inbox`).
 *
 * They are plain HTML forms in the built-in pages' document (no script, the strict CSP, the app's
 * theme, five languages from `messages.ts`). Every form posts to `POST <basePath>/organization/act`
 * with an `action`, which runs the same function as the server function of that name (so the same
 * checks: the pages only leave out controls the user could not use) and sends the browser back to
 * the page with `done=<what>` or `error=<OrganizationError code>`, which the page says in words.
 *
 * @module
 */
import { html, type ModuleRequest, type ModuleResponse, type ModuleRoute, type SafeHtml, type UserFacts } from "@sesame/core"
import { setActiveOrganization, type ActiveOrganization } from "./active.js"
import { actorOf, storeOf, userViewOf, type Deps } from "./context.js"
import { OrganizationError, organizationErrorStatus } from "./errors.js"
import {
  acceptReceivedInvitation,
  cancelInvitation,
  declineReceivedInvitation,
  inviteMember,
  listInvitations,
  listReceivedInvitations,
  resendInvitation,
} from "./invitations.js"
import { listMembers, removeMember, setMemberRoles } from "./members.js"
import { createOrganization, getOrganization, leaveOrganization, listOrganizations, organizationsOf } from "./organizations.js"
import { builtInRoles, type RoleBook } from "./roles.js"
import { rolesIn } from "./stored-roles.js"

/** Which page an action sends the browser back to. */
type Back = "home" | "manage" | "inbox"

/** What the pages' forms post: each action, the page it returns to, and what it runs. */
const actions: Record<string, { back: Back; run(deps: Deps, request: ModuleRequest): Promise<unknown> }> = {
  switch: { back: "home", run: (_, r) => setActiveOrganization(r, text(r, "organizationId")) },
  create: {
    back: "home",
    run: (deps, r) => createOrganization(deps, r, { name: text(r, "name"), ...(text(r, "slug") ? { slug: text(r, "slug") } : {}) }),
  },
  leave: { back: "home", run: (deps, r) => leaveOrganization(deps, r, text(r, "organizationId")) },
  roles: { back: "manage", run: (deps, r) => setMemberRoles(deps, r, text(r, "organizationId"), text(r, "memberId"), checkedRoles(r)) },
  remove: { back: "manage", run: (deps, r) => removeMember(deps, r, text(r, "organizationId"), text(r, "memberId")) },
  invite: { back: "manage", run: (deps, r) => inviteMember(deps, r, text(r, "organizationId"), text(r, "email"), checkedRoles(r)) },
  resend: { back: "manage", run: (deps, r) => resendInvitation(deps, r, text(r, "organizationId"), text(r, "invitationId")) },
  cancel: { back: "manage", run: (deps, r) => cancelInvitation(deps, r, text(r, "organizationId"), text(r, "invitationId")) },
  accept: { back: "home", run: (deps, r) => acceptReceivedInvitation(deps, r, text(r, "invitationId")) },
  decline: { back: "inbox", run: (deps, r) => declineReceivedInvitation(deps, r, text(r, "invitationId")) },
}

/** What `done=` may say: the actions' names. Anything else in the query is not shown. */
const doneCodes = new Set(Object.keys(actions))

/** A form field as the action takes it (a form sends strings; anything else is the action's `InvalidInput`). */
const text = (request: ModuleRequest, name: string): string => request.body[name] as string

/** The roles ticked in a form: one checkbox `role:<name>` each (a form may not repeat a field). */
function checkedRoles(request: ModuleRequest): string[] {
  return Object.keys(request.body).flatMap((key) => (key.startsWith("role:") && request.body[key] === "on" ? [key.slice(5)] : []))
}

/** The module's pages and the action their forms post to. */
export function pageRoutes(deps: Deps): Record<string, ModuleRoute> {
  return {
    "GET organization": { run: (r) => signedIn(r, () => homePage(r)) },
    "GET organization/manage": { run: (r) => signedIn(r, () => managePage(deps, r)) },
    "GET organization/inbox": { run: (r) => signedIn(r, () => inboxPage(r)) },
    "POST organization/act": {
      async run(request) {
        const action = typeof request.body.action === "string" && Object.hasOwn(actions, request.body.action) ? actions[request.body.action]! : undefined
        if (!action) return { status: 400, body: { error: "InvalidInput", message: "`action` is not one of the pages' actions." } }
        const back = backTo(request, action.back)
        try {
          await action.run(deps, request)
          back.searchParams.set("done", request.body.action as string)
        } catch (error) {
          if (!(error instanceof OrganizationError)) throw error
          back.searchParams.set("error", error.code)
        }
        return { redirect: `${back.pathname}${back.search}` }
      },
    },
  }
}

/** The module's pages' paths, from the request's own: one of the routes above, after `<basePath>`. */
function pathsOf(request: ModuleRequest): { base: string; home: string } {
  // Only the route's own end is cut: a base path may hold an "/organization" segment of its own.
  const base = request.url.pathname.replace(/\/organization(?:\/(?:manage|inbox|act))?$/, "")
  return { base, home: `${base}/organization` }
}

/** The page an action returns to; `manage` keeps its organization. */
function backTo(request: ModuleRequest, back: Back): URL {
  const { home } = pathsOf(request)
  const url = new URL(back === "home" ? home : `${home}/${back}`, request.url.origin)
  if (back === "manage" && typeof request.body.organizationId === "string") url.searchParams.set("organizationId", request.body.organizationId)
  return url
}

/** Runs `page` for a signed-in user; anyone else goes to the sign-in page, and comes back here. */
async function signedIn(request: ModuleRequest, page: () => Promise<ModuleResponse>): Promise<ModuleResponse> {
  if (!(await request.user())) {
    const { base } = pathsOf(request)
    return { redirect: `${base}/signin?callbackUrl=${encodeURIComponent(request.url.href)}` }
  }
  try {
    return await page()
  } catch (error) {
    // An organization the user does not belong to (or that does not exist): said on the page, no more.
    if (!(error instanceof OrganizationError)) throw error
    return shell(request, request.text("organization.title.home"), html`<div class="alert" role="alert">${errorText(request, error.code)}</div>${backLink(request)}`, organizationErrorStatus[error.code])
  }
}

/** The page around `body`: its `<h1>` is `title`, and what the last action did is said first. */
function shell(request: ModuleRequest, title: string, body: SafeHtml, status = 200): ModuleResponse {
  return { status, page: { title, width: "wide", body: html`<h1>${title}</h1>${outcome(request)}${body}` } }
}

/** The notice or alert for `done=` or `error=` in the query: only known codes, in words, never the value itself. */
function outcome(request: ModuleRequest): SafeHtml | "" {
  const { done, error } = request.query
  if (error !== undefined && Object.hasOwn(organizationErrorStatus, error)) {
    return html`<div class="alert" role="alert">${errorText(request, error as keyof typeof organizationErrorStatus)}</div>`
  }
  if (done !== undefined && doneCodes.has(done)) return html`<div class="notice" role="status">${request.text(`organization.done.${done}`)}</div>`
  return ""
}

function errorText(request: ModuleRequest, code: keyof typeof organizationErrorStatus): string {
  return request.text(`organization.error.${code}`)
}

/** A role's name as the visitor reads it: the built-in ones translated, the app's as the app named them. */
function roleName(request: ModuleRequest, role: string): string {
  return (builtInRoles as readonly string[]).includes(role) ? request.text(`organization.role.${role}`) : role
}

const roleList = (request: ModuleRequest, roles: readonly string[]) => roles.map((role) => roleName(request, role)).join(", ")

/** A date in the visitor's language; in English for a tag `Intl` does not take (an app's `messages` may name any). */
function dateOf(request: ModuleRequest, date: Date): string {
  let format: Intl.DateTimeFormat
  try {
    format = new Intl.DateTimeFormat(request.lang, { dateStyle: "medium" })
  } catch {
    format = new Intl.DateTimeFormat("en", { dateStyle: "medium" })
  }
  return format.format(new Date(date))
}

/** A form posting `action` to the pages' action endpoint, with the CSRF token and `fields` hidden. */
function actionForm(request: ModuleRequest, csrf: string, action: string, fields: Record<string, string>, content: SafeHtml): SafeHtml {
  return html`<form action="${pathsOf(request).home}/act" method="POST"><input type="hidden" name="csrfToken" value="${csrf}"><input type="hidden" name="action" value="${action}">${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}${content}</form>`
}

function backLink(request: ModuleRequest): SafeHtml {
  return html`<p class="links"><a href="${pathsOf(request).home}">${request.text("organization.back")}</a></p>`
}

/** The switcher: the user's organizations (the active one marked), the create form, a link to the invitations received. */
async function homePage(request: ModuleRequest): Promise<ModuleResponse> {
  const [organizations, received, part, csrf] = await Promise.all([listOrganizations(request), listReceivedInvitations(request), request.sessionPart(), request.csrfToken()])
  const active = (part as ActiveOrganization | undefined)?.id
  const { home } = pathsOf(request)
  const rows = organizations.map(
    (o) => html`<li><div class="what"><span${o.id === active ? html` class="current"` : ""}>${o.name}</span><small>${request.text("organization.your-roles", { roles: roleList(request, o.roles) })}</small></div>
<div class="actions">${o.id === active ? html`<span>${request.text("organization.active")}</span>` : actionForm(request, csrf, "switch", { organizationId: o.id }, html`<button class="small">${request.text("organization.switch", { name: o.name })}</button>`)}<a href="${home}/manage?organizationId=${encodeURIComponent(o.id)}">${request.text("organization.manage", { name: o.name })}</a></div></li>`,
  )
  const body = html`<p class="lead">${request.text("organization.home.lead")}</p>
${organizations.length > 0 ? html`<ul class="rows">${rows}</ul>` : html`<p>${request.text("organization.home.none")}</p>`}
<p><a href="${home}/inbox">${request.text("organization.inbox.link", { count: String(received.length) })}</a></p>
<h2>${request.text("organization.create.heading")}</h2>
${actionForm(
  request,
  csrf,
  "create",
  {},
  html`<label for="org-name">${request.text("organization.create.name")}</label><input id="org-name" name="name" required maxlength="100" autocomplete="organization">
<label for="org-slug">${request.text("organization.create.slug")}</label><input id="org-slug" name="slug" maxlength="48" aria-describedby="org-slug-hint" autocomplete="off"><p class="hint" id="org-slug-hint">${request.text("organization.create.slug-hint")}</p>
<button class="primary">${request.text("organization.create.submit")}</button>`,
)}`
  return shell(request, request.text("organization.title.home"), body)
}

/** One organization: its members and their roles, the invitations sent, the invite form, leaving. */
async function managePage(deps: Deps, request: ModuleRequest): Promise<ModuleResponse> {
  const organizationId = request.query.organizationId
  if (typeof organizationId !== "string") throw new OrganizationError("NotFound", "No such organization.")
  const actor = await actorOf(request)
  // The organization as its member sees it (NotFound for anyone else), and who holds what there.
  const [organization, members, csrf] = await Promise.all([getOrganization(request, { organizationId }), listMembers(request, organizationId), request.csrfToken()])
  const book: RoleBook = await rolesIn(deps, storeOf(request), organization.id)
  const mine = organization.roles
  const may = {
    update: book.can(mine, { member: ["update"] }),
    remove: book.can(mine, { member: ["remove"] }),
    invite: deps.options.invitations !== undefined && book.can(mine, { invitation: ["create"] }),
    cancel: book.can(mine, { invitation: ["cancel"] }),
  }
  const givable = book.names.filter((role) => book.mayGive(mine, [role]))
  const fields = { organizationId: organization.id }
  const roleChoices = (idPrefix: string, checked: readonly string[]) =>
    html`<fieldset class="choices"><legend>${request.text("organization.members.roles")}</legend>${givable.map(
      (role) => html`<label for="${idPrefix}-${role}"><input type="checkbox" id="${idPrefix}-${role}" name="role:${role}"${checked.includes(role) ? html` checked` : ""}>${roleName(request, role)}</label>`,
    )}</fieldset>`

  const memberRows = members.map((m, index) => {
    const self = m.userId === actor.id
    const who = m.user.name ?? m.user.email ?? m.userId
    // Roles are changed only by someone who may give every role the member holds (the action checks it again).
    const editable = may.update && !self && book.mayGive(mine, m.roles)
    return html`<li><div class="what">${who}${self ? html` ${request.text("organization.members.you")}` : ""}${m.user.name && m.user.email ? html`<small>${m.user.email}</small>` : ""}<small>${roleList(request, m.roles)}</small></div>
<div class="actions">${editable ? actionForm(request, csrf, "roles", { ...fields, memberId: m.id }, html`${roleChoices(`member-${index}`, m.roles)}<button class="small">${request.text("organization.members.save", { name: who })}</button>`) : ""}${may.remove && !self && book.mayGive(mine, m.roles) ? actionForm(request, csrf, "remove", { ...fields, memberId: m.id }, html`<button class="small">${request.text("organization.members.remove", { name: who })}</button>`) : ""}</div></li>`
  })

  let sent: SafeHtml | "" = ""
  if (may.invite) {
    const invitations = await listInvitations(deps, request, organization.id)
    const rows = invitations.map(
      (i) => html`<li><div class="what">${i.email}<small>${roleList(request, i.roles)} · ${request.text("organization.invitations.until", { date: dateOf(request, i.expires) })}</small></div>
<div class="actions">${actionForm(request, csrf, "resend", { ...fields, invitationId: i.id }, html`<button class="small">${request.text("organization.invitations.resend", { email: i.email })}</button>`)}${may.cancel ? actionForm(request, csrf, "cancel", { ...fields, invitationId: i.id }, html`<button class="small">${request.text("organization.invitations.cancel", { email: i.email })}</button>`) : ""}</div></li>`,
    )
    sent = html`<h2>${request.text("organization.invitations.heading")}</h2>
${invitations.length > 0 ? html`<ul class="rows">${rows}</ul>` : html`<p>${request.text("organization.invitations.none")}</p>`}
<h2>${request.text("organization.invite.heading")}</h2>
${actionForm(request, csrf, "invite", fields, html`<label for="invite-email">${request.text("organization.invite.email")}</label><input id="invite-email" type="email" name="email" required autocomplete="off">${roleChoices("invite", ["member"])}<button class="primary">${request.text("organization.invite.submit")}</button>`)}`
  }

  // Other plugins' parts of this page (an organization's API keys): each checks who may see it.
  const returnTo = `${request.authUrl}/organization/manage?organizationId=${encodeURIComponent(organization.id)}`
  const others = await request.sections("organization.manage", { organizationId: organization.id, returnTo })
  const body = html`<h2>${request.text("organization.members.heading")}</h2>
<ul class="rows">${memberRows}</ul>
${sent}
${others}
<h2>${request.text("organization.leave.heading")}</h2>
${actionForm(request, csrf, "leave", fields, html`<button>${request.text("organization.leave.submit", { name: organization.name })}</button>`)}
${backLink(request)}`
  return shell(request, organization.name, body)
}

/** The invitations to the signed-in user's proven address: accept or decline each. */
async function inboxPage(request: ModuleRequest): Promise<ModuleResponse> {
  const [received, csrf] = await Promise.all([listReceivedInvitations(request), request.csrfToken()])
  // Anyone may create an organization named like another and invite any address: the invitation
  // says which one (its short name) and who sent it, so that a look-alike is told apart.
  const senders = await Promise.all(received.map(async (i) => (i.invitedBy ? await userViewOf(request, i.invitedBy) : null)))
  const rows = received.map(
    (i, index) => html`<li><div class="what">${i.organization.name} <small>${i.organization.slug}</small><small>${request.text("organization.inbox.from", { who: senders[index]?.email ?? senders[index]?.name ?? "?" })}</small><small>${roleList(request, i.roles)} · ${request.text("organization.invitations.until", { date: dateOf(request, i.expires) })}</small></div>
<div class="actions">${actionForm(request, csrf, "accept", { invitationId: i.id }, html`<button class="small primary">${request.text("organization.inbox.accept", { name: i.organization.name })}</button>`)}${actionForm(request, csrf, "decline", { invitationId: i.id }, html`<button class="small">${request.text("organization.inbox.decline", { name: i.organization.name })}</button>`)}</div></li>`,
  )
  const body = html`<p class="lead">${request.text("organization.inbox.lead")}</p>
${received.length > 0 ? html`<ul class="rows">${rows}</ul>` : html`<p>${request.text("organization.inbox.none")}</p>`}
${backLink(request)}`
  return shell(request, request.text("organization.inbox.title"), body)
}

/**
 * The module's part of the core's account page (`SesameModule.accountSection`): the signed-in
 * user's organizations with their roles, each linking to its page, and a link to the module's
 * home page (where organizations are made and switched).
 */
export async function accountSection(request: ModuleRequest): Promise<SafeHtml | null> {
  if (!(await request.user())) return null
  const organizations = await listOrganizations(request)
  const home = `${request.authUrl}/organization`
  const rows = organizations.map(
    (o) => html`<li><div class="what"><a href="${home}/manage?organizationId=${encodeURIComponent(o.id)}">${o.name}</a><small>${request.text("organization.your-roles", { roles: roleList(request, o.roles) })}</small></div></li>`,
  )
  return html`<h2 id="organization-heading">${request.text("organization.account.heading")}</h2>
${organizations.length > 0 ? html`<ul class="rows" aria-labelledby="organization-heading">${rows}</ul>` : html`<p>${request.text("organization.home.none")}</p>`}
<p><a href="${home}">${request.text("organization.account.open")}</a></p>`
}

/** `SesameModule.aboutUser`: the organizations an admin's view of a user lists, each with the user's roles there. */
export async function aboutUser(userId: string, request: ModuleRequest): Promise<UserFacts> {
  const organizations = await organizationsOf(storeOf(request), userId)
  return { title: request.text("organization.account.heading"), items: organizations.map((o) => `${o.name}: ${roleList(request, o.roles)}`) }
}
