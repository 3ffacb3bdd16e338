"use server"
/**
 * Server functions: they run on the server whether the page is rendered there or navigated to in
 * the browser (then SolidStart calls them over HTTP, with the browser's cookies).
 */
import { getRequestEvent } from "solid-js/web"
import { requireSession } from "@sesame/solid-start"
import { authConfig } from "./auth"

/** The session of the account page; without one, a redirect to /signin. */
export async function accountSession() {
  return requireSession(getRequestEvent()!.request, authConfig, "/signin")
}

/** The sign-in buttons to offer besides the credentials form. */
export async function oauthProviders(): Promise<{ id: string; name: string }[]> {
  return authConfig.providers.flatMap((p) => (typeof p === "object" && (p.type === "oidc" || p.type === "oauth") ? [{ id: p.id, name: p.name }] : []))
}
