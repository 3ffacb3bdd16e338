/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0). oidc-provider checks the request
 * (`GET <issuer>/session/end`: the ID token hint, the registered `post_logout_redirect_uri`) and
 * sends the browser to the module's page, which asks the user; signing out there ends the Sesame
 * session (the server's own session is Sesame's: it would sign the user in again anyway) and then
 * oidc-provider's, whose answer sends the browser back to the client, with its `state`.
 *
 * @module
 */
import { html, type ModuleRequest, type ModuleResponse, type ModuleRoute } from "@sesame/core"
import { throughServer } from "./bridge.js"
import { errorPage } from "./pages.js"
import type { ServerFor } from "./servers.js"

/** The browser's cookies that are the server's own, as its service would receive them. */
function serverCookies(request: ModuleRequest): string {
  return (request.headers.get("cookie") ?? "")
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => /^(__Secure-)?sesame\.oauth\./.test(pair))
    .join("; ")
}

export function logoutRoutes(serverFor: ServerFor): Record<string, ModuleRoute> {
  return {
    "GET oauth/logout": {
      async run(request) {
        const title = request.text("oauth.logout.title")
        if (request.query.done !== undefined) return { page: { title, body: html`<h1>${title}</h1><div class="notice" role="status">${request.text("oauth.logout.done")}</div>` } }
        const xsrf = request.query.xsrf
        if (!xsrf) return errorPage(request, "invalid_request", 400)
        const csrf = await request.csrfToken()
        return {
          page: {
            title,
            body: html`<h1>${title}</h1><p class="lead">${request.text("oauth.logout.lead")}</p>
<div class="buttons"><form action="${request.authUrl}/oauth/logout" method="POST"><input type="hidden" name="csrfToken" value="${csrf}"><input type="hidden" name="xsrf" value="${xsrf}"><input type="hidden" name="logout" value="yes"><button type="submit" class="primary">${request.text("oauth.logout.confirm")}</button></form><form action="${request.authUrl}/oauth/logout" method="POST"><input type="hidden" name="csrfToken" value="${csrf}"><input type="hidden" name="xsrf" value="${xsrf}"><button type="submit">${request.text("oauth.logout.stay")}</button></form></div>`,
          },
        }
      },
    },
    "POST oauth/logout": {
      async run(request): Promise<ModuleResponse> {
        const server = await serverFor(request)
        if (!server) return errorPage(request, "server_error", 500)
        const logout = request.body.logout === "yes"
        if (logout) await request.signOut()
        // oidc-provider's own confirmation: it ends its session and says where the client wants the browser.
        const body = new URLSearchParams({ xsrf: String(request.body.xsrf ?? ""), ...(logout ? { logout: "yes" } : {}) })
        const answer = await throughServer(
          server,
          new Request(`${server.issuer}/session/end/confirm`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie: serverCookies(request) }, body }),
          async () => null,
        )
        if (logout) request.setCookie("session", "", { maxAge: 0 })
        const location = answer.headers.get("location")
        if (!location || answer.status < 300 || answer.status >= 400) return errorPage(request, "invalid_request", 400)
        const target = new URL(location, server.issuer)
        // The client's registered post-logout URI (oidc-provider checked it), or the module's page.
        return target.origin === new URL(request.authUrl).origin ? { redirect: target.href } : request.redirectToIdentityProvider(target.href)
      },
    },
  }
}
