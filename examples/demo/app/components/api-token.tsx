"use client"
/**
 * The home page's "API token" section: a button whose server action gets an API token for the
 * signed-in user (`getApiToken()`) and calls the demo's API (/api/me) with it, from the server;
 * then what the API answered, and the token's claims. The token itself never reaches the page.
 *
 * A form with a server action, so that the button works from the keyboard, and without
 * JavaScript too (the page then comes back with the outcome).
 */
import { useActionState } from "react"
import type { ApiCall, ShownClaim } from "../../lib/api"
import { callApiAction } from "../actions"

/** What the registered claims mean; the app's own claims, if it added some, go unexplained. */
const meanings: Record<string, string> = {
  iss: "Issuer: the app, by its URL up to /api/auth",
  aud: "Audience: the service the token is for",
  sub: "Subject: your user id",
  iat: "Issued at",
  nbf: "Not valid before",
  exp: "Expires at",
  jti: "The token’s own id, new for every token",
}

const utc = (iso: string) => iso.replace("T", " ").slice(0, 19) + " UTC"

/** The outcome in one sentence, for the status line. */
function sentence(call: ApiCall): string {
  switch (call.outcome) {
    case "answered":
      return `The API says you are ${call.user}. It accepts this token until ${utc(call.expiresAt)}.`
    case "refused":
      return `The API refused the token (${call.status}): ${call.error}.`
    case "signed-out":
      return "You are signed out: sign in again to get a token."
    case "not-configured":
      return "The app has no public URL (AUTH_URL), so it cannot tell the API whom to trust: start the demo with npm start."
    case "unreachable":
      return "The API did not answer."
  }
}

function Claims({ signedWith, claims }: { signedWith: string; claims: ShownClaim[] }) {
  return (
    <table className="claims" data-testid="api-token-claims">
      <caption>The token’s claims (signed with {signedWith})</caption>
      <thead>
        <tr>
          <th scope="col">Claim</th>
          <th scope="col">Value</th>
          <th scope="col">Meaning</th>
        </tr>
      </thead>
      <tbody>
        {claims.map((claim) => (
          <tr key={claim.name} data-claim={claim.name}>
            <th scope="row">{claim.name}</th>
            <td>{claim.value}</td>
            <td className="muted">{meanings[claim.name] ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function ApiTokenSection() {
  const [call, run, pending] = useActionState(callApiAction, null)
  const failed = call !== null && call.outcome !== "answered"
  return (
    <section aria-labelledby="api-token-heading">
      <h2 id="api-token-heading">API token</h2>
      <p>
        Your other services can know who you are without the app’s secret: Sesame gives you a token for them that lasts 15
        minutes, and they check its signature against the app’s public keys at <code>/api/auth/jwks</code>. The button gets
        one on the app’s server and calls the demo’s API (<code>/api/me</code>) with it.
      </p>
      <form action={run}>
        <button type="submit">Call the API with a token</button>
      </form>
      {/* Always in the page, so that screen readers announce what appears in it. */}
      <p role="status" data-testid="api-answer" className={failed ? "error" : undefined}>
        {pending ? "Getting a token and calling the API…" : call ? sentence(call) : ""}
      </p>
      {call && !pending && (call.outcome === "answered" || call.outcome === "refused") ? <Claims signedWith={call.signedWith} claims={call.claims} /> : null}
    </section>
  )
}
