import { cookies } from "next/headers"
import { basePath } from "../../../auth"
import { livingRoomTv, partnerNotes } from "../../../lib/partner"
import { checkTvAction, resetTvAction, signOutPartnerAction, startTvAction } from "./actions"
import { cookieNames, openCookie, partnerIssuer, type PartnerSession, type TvState } from "./partner-app"

// What the apps remember changes with every button: never from a cache.
export const dynamic = "force-dynamic"

const utc = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(11, 16) + " UTC"

/** What `?partner=` says: how Partner notes' sign-in ended. */
const partnerNotices: Record<string, { text: string; error: boolean }> = {
  "signed-in": { text: "Partner notes signed you in.", error: false },
  denied: { text: "You pressed Deny: Partner notes did not sign you in.", error: true },
  failed: { text: "Partner notes could not sign you in: the answer was not the one it expected. Try again.", error: true },
  "no-sign-in": { text: "That answer was for no sign-in this browser started (or one older than 10 minutes): Partner notes ignored it.", error: true },
  unreachable: { text: "The authorization server did not answer Partner notes.", error: true },
  "signed-out": { text: "Partner notes forgot you. You are still signed in here, and it stays among the apps you allowed.", error: false },
}

/** What `?tv=` says: the TV's last question to the authorization server. */
const tvNotices: Record<string, { text: string; error: boolean }> = {
  "signed-in": { text: "The TV got its tokens.", error: false },
  waiting: { text: "Waiting: nobody has entered and allowed the TV’s code yet.", error: false },
  denied: { text: "The code was cancelled on the code page: the TV was not connected. Start again.", error: true },
  expired: { text: "The TV’s code expired or was used already: start again.", error: true },
  unreachable: { text: "The authorization server did not answer the TV.", error: true },
}

function Status({ testId, notice }: { testId: string; notice: { text: string; error: boolean } | undefined }) {
  // Always in the page, so that screen readers announce what appears in it.
  return (
    <p role="status" data-testid={testId} className={notice?.error ? "error" : undefined}>
      {notice?.text ?? ""}
    </p>
  )
}

/**
 * Development only: two apps that sign in with your demo account through this app's OAuth 2.1 /
 * OpenID Connect provider, played by the demo's own server (./partner-app.ts): Partner notes (the
 * authorization code with PKCE) and Living-room TV (the device flow).
 */
export default async function Partner({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const issuer = partnerIssuer()
  const { partner, tv } = await searchParams
  const jar = await cookies()
  const session = openCookie<PartnerSession>(cookieNames.session, jar.get(cookieNames.session)?.value)
  const tvState = openCookie<TvState>(cookieNames.tv, jar.get(cookieNames.tv)?.value)
  return (
    <>
      <h1>Partner notes</h1>
      <p>
        An app that signs in with your demo account. This app is an OAuth 2.1 / OpenID Connect provider, so other apps let
        you sign in with your account here, as many do with a Google account. Its issuer is{" "}
        <code data-testid="issuer">{issuer ?? "(none)"}</code>.
      </p>
      <p className="muted">
        Development only: Partner notes and the TV below are played by the demo’s own server, and talk to the provider over
        HTTP like any other app, with their client IDs (<code>{partnerNotes.clientId}</code>, <code>{livingRoomTv.clientId}</code>) and
        Partner notes’ secret.
      </p>
      {issuer === null ? (
        <p role="alert" className="error">
          The app has no public URL (AUTH_URL), so it has no issuer: start the demo with npm start.
        </p>
      ) : (
        <>
          <section aria-labelledby="partner-heading">
            <h2 id="partner-heading">Sign in to Partner notes</h2>
            <p>
              A web app with a server. Its button sends you here to sign in (if you are not signed in already), then to a page
              that asks whether to allow it, then back to Partner notes with a code, which Partner notes exchanges for tokens with
              its secret (the authorization code with PKCE).
            </p>
            <Status testId="partner-status" notice={typeof partner === "string" ? partnerNotices[partner] : undefined} />
            {session ? (
              <>
                <p data-testid="partner-user">
                  Partner notes sees you as <strong>{session.email}</strong>.
                </p>
                <p data-testid="partner-scopes">
                  You allowed it: {session.scopes.map((scope, i) => (
                    <span key={scope}>
                      {i > 0 ? " " : null}
                      <code>{scope}</code>
                    </span>
                  ))}
                </p>
              </>
            ) : (
              <p className="muted">Partner notes does not know you yet.</p>
            )}
            <form action="/dev/partner/signin" method="post" className="inline">
              <button type="submit">Sign in to Partner notes</button>
            </form>
            {session ? (
              <form action={signOutPartnerAction} className="inline">
                <button type="submit">Sign out of Partner notes</button>
              </form>
            ) : null}
          </section>

          <section aria-labelledby="tv-heading">
            <h2 id="tv-heading">Living-room TV</h2>
            <p>
              A TV has no keyboard to sign in with. It asks the provider for a code and shows it; you enter the code here from any
              browser (a phone, this one), check it and allow the TV; the TV, asking again every few seconds, then gets its tokens
              (the device flow). Here the TV asks when you press “Check the TV”.
            </p>
            <Status testId="tv-status" notice={typeof tv === "string" ? tvNotices[tv] : undefined} />
            {tvState?.step === "code" ? (
              <>
                <p>
                  The TV shows the code <strong className="user-code" data-testid="tv-code">{tvState.userCode}</strong>, until{" "}
                  {utc(tvState.expiresAt)}.
                </p>
                <p>
                  Open <a href={tvState.verificationUri} data-testid="tv-link">{tvState.verificationUri}</a> and enter it.
                </p>
                <form action={checkTvAction} className="inline">
                  <button type="submit">Check the TV</button>
                </form>
                <form action={resetTvAction} className="inline">
                  <button type="submit">Start again</button>
                </form>
              </>
            ) : tvState?.step === "signed-in" ? (
              <>
                <p data-testid="tv-user">
                  The TV is signed in as <strong>{tvState.email}</strong>.
                </p>
                <form action={resetTvAction} className="inline">
                  <button type="submit">Turn the TV off</button>
                </form>
              </>
            ) : (
              <form action={startTvAction} className="inline">
                <button type="submit">Start as a TV</button>
              </form>
            )}
          </section>

          <p>
            <a href={`${basePath}/oauth/consents`}>Apps you allowed</a>: the apps that may use your account, and what each may
            do; removing one signs it out.
          </p>
          <p>
            <a href={`${basePath}/oauth/clients`}>Apps you registered</a>: register an app of your own, to get its client ID
            (and secret) for signing people in with their accounts here.
          </p>
        </>
      )}
    </>
  )
}
