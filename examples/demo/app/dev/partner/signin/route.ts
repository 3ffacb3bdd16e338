/**
 * "Sign in to Partner notes": the authorization request, with PKCE and a state, from a form post.
 * The state and the code verifier go in Partner notes' own cookie, for the callback to check; the
 * browser goes to the demo's authorization server (its sign-in page if need be, then its consent
 * page), which sends it back to /dev/partner/callback.
 */
import { NextResponse, type NextRequest } from "next/server"
import { publicOrigin } from "../../../../lib/api"
import { cookieNames, cookieOptions, partnerPageUrl, sealCookie, startSignIn } from "../partner-app"

export async function POST(request: NextRequest): Promise<Response> {
  // Only the page's own form starts a sign-in: not another site's.
  if (request.headers.get("origin") !== publicOrigin()) return new Response("Forbidden", { status: 403 })
  let started: Awaited<ReturnType<typeof startSignIn>>
  try {
    started = await startSignIn()
  } catch (error) {
    console.error("Partner notes: the authorization server's discovery document could not be read.", error)
    return NextResponse.redirect(partnerPageUrl("?partner=unreachable"), 303)
  }
  const response = NextResponse.redirect(started.url, 303)
  response.cookies.set(cookieNames.signIn, sealCookie(cookieNames.signIn, started.started), cookieOptions(10 * 60))
  return response
}
