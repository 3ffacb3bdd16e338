/**
 * The module's endpoints: the page a suspended user is sent to, and a JSON endpoint for each admin
 * action (the same checks as the server functions, which they call). A refusal is
 * `{ error: code, message }` with its status ({@link AdminError}).
 *
 * @module
 */
import { html, type ModuleRequest, type ModuleResponse, type ModuleRoute } from "@sesame/core"
import { banOf, banUser, unbanUser } from "./bans.js"
import { AdminError } from "./errors.js"
import type { ResolvedAdminOptions } from "./options.js"
import { createUser, deleteUserAsAdmin, listUsers, revokeUserSessions, sendPasswordReset, userDetails } from "./users.js"

const field = (request: ModuleRequest, name: string): unknown => (request.method === "GET" ? request.query[name] : request.body[name])

/** Runs `action` and answers its result as JSON, or its refusal. */
function route(action: (request: ModuleRequest) => Promise<unknown>): ModuleRoute {
  return {
    async run(request): Promise<ModuleResponse> {
      try {
        return { body: { result: await action(request) } }
      } catch (error) {
        if (error instanceof AdminError) return { status: error.status, body: { error: error.code, message: error.message } }
        throw error
      }
    },
  }
}

/** `GET admin/suspended`: says the account is suspended, and until when when the link says so. Names no one. */
function suspendedPage(request: ModuleRequest): ModuleResponse {
  const title = request.text("admin.suspended.title")
  const until = request.query.until ? new Date(request.query.until) : null
  const date =
    until && !Number.isNaN(until.getTime())
      ? `${new Intl.DateTimeFormat(request.lang, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(until)} UTC`
      : null
  return {
    status: 403,
    page: {
      title,
      body: html`<h1>${title}</h1>
        <p>${request.text("admin.suspended.lead")}</p>
        ${date ? html`<p>${request.text("admin.suspended.until", { date })}</p>` : html``}
        <p>${request.text("admin.suspended.contact")}</p>`,
    },
  }
}

export function adminRoutes(options: ResolvedAdminOptions): Record<string, ModuleRoute> {
  return {
    "GET admin/suspended": { run: suspendedPage },
    "GET admin/users": route((request) =>
      listUsers(options, request, {
        ...(request.query.search ? { search: request.query.search } : {}),
        ...(request.query.limit ? { limit: Number(request.query.limit) } : {}),
        ...(request.query.cursor ? { cursor: request.query.cursor } : {}),
      }),
    ),
    "GET admin/user": route((request) => userDetails(options, request, field(request, "userId"))),
    "GET admin/ban": route((request) => banOf(options, request, field(request, "userId"))),
    "POST admin/ban": route((request) => banUser(options, request, field(request, "userId"), { reason: field(request, "reason"), until: field(request, "until") })),
    "POST admin/unban": route((request) => unbanUser(options, request, field(request, "userId"))),
    "POST admin/revoke-sessions": route((request) => revokeUserSessions(options, request, field(request, "userId"))),
    "POST admin/delete-user": route((request) => deleteUserAsAdmin(options, request, field(request, "userId"))),
    // It may send the new user a reset link.
    "POST admin/create-user": {
      ...route((request) =>
        createUser(options, request, {
          email: field(request, "email"),
          name: field(request, "name"),
          emailVerified: field(request, "emailVerified"),
          sendPasswordReset: field(request, "sendPasswordReset"),
        }),
      ),
      rateLimit: "email",
    },
    "POST admin/send-password-reset": { ...route((request) => sendPasswordReset(options, request, field(request, "userId"))), rateLimit: "email" },
  }
}
