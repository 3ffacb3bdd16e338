/**
 * Partner notes' redirect URI: the authorization server's answer, checked against the sign-in this
 * browser started (state, PKCE) and exchanged for tokens with the client secret, server to server.
 * Partner notes then remembers whom it signed in (its session cookie), and shows it on /dev/partner.
 */
import { NextResponse, type NextRequest } from "next/server"
import * as client from "openid-client"
import { cookieNames, cookieOptions, finishSignIn, openCookie, partnerPageUrl, sealCookie, type PartnerSession, type SignInStarted } from "../partner-app"

export async function GET(request: NextRequest): Promise<Response> {
  const started = openCookie<SignInStarted>(cookieNames.signIn, request.cookies.get(cookieNames.signIn)?.value)
  let session: PartnerSession | null = null
  let outcome = "signed-in"
  if (!started) outcome = "no-sign-in"
  else {
    try {
      session = await finishSignIn(request.nextUrl.searchParams, started)
    } catch (error) {
      // The user pressed Deny (`access_denied`), or the answer was not the one expected (logged).
      outcome = error instanceof client.AuthorizationResponseError && error.error === "access_denied" ? "denied" : "failed"
      if (outcome === "failed") console.error("Partner notes: the sign-in failed.", error)
    }
  }
  const response = NextResponse.redirect(partnerPageUrl(`?partner=${outcome}`), 303)
  // The sign-in is over, whatever its outcome: its state and verifier go.
  response.cookies.set(cookieNames.signIn, "", cookieOptions(0))
  if (session) response.cookies.set(cookieNames.session, sealCookie(cookieNames.session, session), cookieOptions())
  return response
}
