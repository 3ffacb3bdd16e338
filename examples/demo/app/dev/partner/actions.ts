"use server"
/**
 * The page's buttons for the TV ("Start as a TV", "Check the TV", "Start again") and "Sign out of
 * Partner notes": each changes the app's cookie and comes back to /dev/partner with what happened.
 */
import { cookies } from "next/headers"
import { redirect } from "next/navigation"
import { checkTv, cookieNames, cookieOptions, openCookie, partnerPath, sealCookie, startTv, type TvState } from "./partner-app"

/** A device authorization: the TV now shows a code (kept as long as the code lasts). */
export async function startTvAction(): Promise<void> {
  let state: TvState & { step: "code" }
  try {
    state = await startTv()
  } catch (error) {
    console.error("Living-room TV: the device authorization failed.", error)
    redirect(`${partnerPath}?tv=unreachable`)
  }
  ;(await cookies()).set(cookieNames.tv, sealCookie(cookieNames.tv, state), cookieOptions(Math.ceil((state.expiresAt - Date.now()) / 1000)))
  redirect(partnerPath)
}

/** One token request with the TV's device code: signed in (the TV remembers whom), or still waiting. */
export async function checkTvAction(): Promise<void> {
  const jar = await cookies()
  const state = openCookie<TvState>(cookieNames.tv, jar.get(cookieNames.tv)?.value)
  if (state?.step !== "code") redirect(partnerPath)
  let outcome: string
  try {
    const checked = await checkTv(state.deviceCode)
    outcome = checked.outcome
    if (checked.outcome === "signed-in") jar.set(cookieNames.tv, sealCookie(cookieNames.tv, { step: "signed-in", email: checked.email } satisfies TvState), cookieOptions())
    // The code is spent or refused: the TV starts over.
    else if (checked.outcome !== "waiting") jar.set(cookieNames.tv, "", cookieOptions(0))
  } catch (error) {
    console.error("Living-room TV: the token request failed.", error)
    outcome = "unreachable"
  }
  redirect(`${partnerPath}?tv=${outcome}`)
}

/** The TV forgets its code or its user. */
export async function resetTvAction(): Promise<void> {
  ;(await cookies()).set(cookieNames.tv, "", cookieOptions(0))
  redirect(partnerPath)
}

/** Partner notes forgets whom it signed in (the demo's own session stays). */
export async function signOutPartnerAction(): Promise<void> {
  ;(await cookies()).set(cookieNames.session, "", cookieOptions(0))
  redirect(`${partnerPath}?partner=signed-out`)
}
