/**
 * The user's part of an authorization (`GET`/`POST <basePath>/oauth/interaction?uid=…`): where
 * oidc-provider sends the browser when it needs to know who the user is, or what they allow.
 * - Sign-in is Sesame's own: without a session, the browser goes to the sign-in page and comes
 *   back. `prompt=login` wants a sign-in made after the request began, `max_age` one within that age.
 * - Consent is the module's page: the client, what it asks, Allow or Deny. What is allowed is
 *   remembered per user and client (`consent.ts`); a first-party client never gets here for it.
 * Each step is bound to the browser that began the authorization (`binding.ts`), and the consent
 * to the user the authorization is for.
 *
 * @module
 */
import { html, type ModuleRequest, type ModuleResponse, type ModuleRoute, type SafeHtml } from "@sesame/core"
import type { InteractionResults } from "oidc-provider"
import { holdsInteraction } from "./binding.js"
import { ownGrant, rememberConsent } from "./consent.js"
import { errorPage } from "./pages.js"
import type { Server } from "./server.js"
import type { ServerFor } from "./servers.js"

type Interaction = InstanceType<Server["provider"]["Interaction"]>

const now = () => Math.floor(Date.now() / 1000)

/** Records `result` on the interaction and sends the browser back to oidc-provider to go on. */
async function finish(interaction: Interaction, result: InteractionResults, merge = true): Promise<ModuleResponse> {
  interaction.result = merge ? { ...interaction.lastSubmission, ...result } : result
  await interaction.save(Math.max(1, interaction.exp - now()))
  return { redirect: interaction.returnTo }
}

/** The interaction of `uid`, when this browser began it and it has not expired. */
async function boundInteraction(request: ModuleRequest, server: Server, uid: string | undefined): Promise<Interaction | ModuleResponse> {
  if (typeof uid !== "string" || uid === "" || !holdsInteraction(request, server, uid)) return errorPage(request, "interaction_lost", 400)
  const interaction = await server.provider.Interaction.find(uid)
  return interaction ?? errorPage(request, "interaction_lost", 400)
}

/** The sign-in page, coming back to this interaction. */
function signIn(request: ModuleRequest, uid: string): ModuleResponse {
  const back = `${request.authUrl}/oauth/interaction?${new URLSearchParams({ uid })}`
  return { redirect: `${request.authUrl}/signin?${new URLSearchParams({ callbackUrl: back })}` }
}

/** What the scopes mean to the user, one line each; a resource's scopes name the resource. */
function scopeLines(request: ModuleRequest, details: Record<string, unknown>): SafeHtml[] {
  const lines: SafeHtml[] = []
  const resources = (details.missingResourceScopes as Record<string, string[]> | undefined) ?? {}
  // A resource's scope is said on its resource's line, not again as a bare scope.
  const forResources = new Set(Object.values(resources).flat())
  const oidc = ((details.missingOIDCScope as string[] | undefined) ?? []).filter((scope) => !forResources.has(scope))
  for (const scope of oidc) {
    if (scope === "openid") lines.push(html`<li>${request.text("oauth.scope.openid")}</li>`)
    else if (["email", "profile", "offline_access"].includes(scope)) lines.push(html`<li>${request.text(`oauth.scope.${scope}`)}</li>`)
    else lines.push(html`<li><code>${scope}</code></li>`)
  }
  const claims = (details.missingOIDCClaims as string[] | undefined) ?? []
  if (claims.length > 0) lines.push(html`<li>${request.text("oauth.scope.claims", { claims: claims.join(", ") })}</li>`)
  for (const [resource, scopes] of Object.entries(resources)) {
    lines.push(html`<li>${request.text("oauth.scope.resource", { resource, scopes: scopes.join(", ") })}</li>`)
  }
  return lines
}

async function consentPage(request: ModuleRequest, server: Server, interaction: Interaction, email: string, configured: ReadonlySet<string>): Promise<ModuleResponse> {
  const client = await server.provider.Client.find(String(interaction.params.client_id))
  if (!client) return errorPage(request, "invalid_client", 400)
  const name = (client.clientName as string | undefined) ?? client.clientId
  const csrf = await request.csrfToken()
  const form = (decision: "allow" | "deny", label: string, primary: boolean) =>
    html`<form action="${request.authUrl}/oauth/interaction" method="POST"><input type="hidden" name="csrfToken" value="${csrf}"><input type="hidden" name="uid" value="${interaction.uid}"><input type="hidden" name="decision" value="${decision}"><button type="submit"${primary ? html` class="primary"` : ""}>${label}</button></form>`
  return {
    page: {
      title: request.text("oauth.consent.title", { client: name }),
      body: html`<h1>${request.text("oauth.consent.title", { client: name })}</h1>
<p class="lead">${request.text("oauth.consent.lead", { client: name, email })}</p>
<ul>${scopeLines(request, interaction.prompt.details)}</ul>${
        // Anyone may name an app they register "Google Drive": the page says when the app's name is not the site's word.
        configured.has(client.clientId) ? "" : html`<p class="note" data-testid="oauth-unvouched">${request.text("oauth.consent.unvouched")}</p>`
      }
<p class="hint">${request.text("oauth.consent.revoke-hint")}</p>
<div class="buttons">${form("allow", request.text("oauth.consent.allow"), true)}${form("deny", request.text("oauth.consent.deny"), false)}</div>`,
    },
  }
}

/** The endpoints; `configured`: the ids of the configuration's clients, whose names the site vouches for. */
export function interactionRoutes(serverFor: ServerFor, configured: ReadonlySet<string>): Record<string, ModuleRoute> {
  return {
    "GET oauth/interaction": {
      async run(request) {
        const server = await serverFor(request)
        if (!server) return errorPage(request, "server_error", 500)
        const interaction = await boundInteraction(request, server, request.query.uid)
        if (!("uid" in interaction)) return interaction
        const user = await request.user()
        if (!user?.id) return signIn(request, interaction.uid)
        // Someone acting as the user (an admin) gives no app the user's tokens.
        if (await request.acting()) return errorPage(request, "access_denied", 403)
        const userId = user.id
        if (interaction.prompt.name === "login") {
          const { reasons } = interaction.prompt
          // `max_age`: signed in within it; `prompt=login`: signed in since the request began.
          const maxAge = reasons.includes("max_age") ? Number(interaction.params.max_age) : reasons.includes("login_prompt") ? now() - interaction.iat + 1 : undefined
          if (maxAge !== undefined && !(maxAge > 0 && (await request.recentSignIn(maxAge)))) return signIn(request, interaction.uid)
          return finish(interaction, { login: { accountId: userId } })
        }
        // The consent is the signed-in user's: someone else signed in since the authorization began starts it again.
        if (interaction.session?.accountId !== userId) return finish(interaction, { login: { accountId: userId } }, false)
        return consentPage(request, server, interaction, user.email ?? user.name ?? userId, configured)
      },
    },
    "POST oauth/interaction": {
      async run(request) {
        const server = await serverFor(request)
        if (!server) return errorPage(request, "server_error", 500)
        const interaction = await boundInteraction(request, server, typeof request.body.uid === "string" ? request.body.uid : undefined)
        if (!("uid" in interaction)) return interaction
        const user = await request.user()
        if (!user?.id) return signIn(request, interaction.uid)
        if (await request.acting()) return errorPage(request, "access_denied", 403)
        const accountId = interaction.session?.accountId
        if (interaction.prompt.name !== "consent" || !accountId || accountId !== user.id) return errorPage(request, "interaction_lost", 400)
        if (request.body.decision !== "allow") return finish(interaction, { error: "access_denied", error_description: "The user did not allow the request." }, false)
        const clientId = String(interaction.params.client_id)
        const { Grant } = server.provider
        // The grant this user already gave this client (this interaction's, or the remembered one), so
        // that one consent holds one grant; a new one only when there is none.
        const grant = (await ownGrant(server.provider, request.store!, accountId, clientId, interaction.grantId)) ?? new Grant({ accountId, clientId })
        const details = interaction.prompt.details as Record<string, unknown>
        const scopes = details.missingOIDCScope as string[] | undefined
        if (scopes?.length) grant.addOIDCScope(scopes.join(" "))
        const claims = details.missingOIDCClaims as string[] | undefined
        if (claims?.length) grant.addOIDCClaims(claims)
        for (const [resource, wanted] of Object.entries((details.missingResourceScopes as Record<string, string[]> | undefined) ?? {})) grant.addResourceScope(resource, wanted.join(" "))
        const grantId = await grant.save()
        await rememberConsent(request.store!, accountId, clientId, grantId)
        return finish(interaction, { consent: { grantId } })
      },
    },
  }
}
