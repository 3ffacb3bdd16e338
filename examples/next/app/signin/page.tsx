import { signInWithIdp, signInWithPassword } from "../actions"

const messages: Record<string, string> = {
  CredentialsSignin: "That email and password do not match.",
  SessionRequired: "Please sign in to see that page.",
}

/** Where the guard sends signed-out visitors (`pages.signIn`), with `callbackUrl` back. */
export default async function SignIn({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams
  const callbackUrl = typeof params.callbackUrl === "string" && params.callbackUrl.startsWith("/") ? params.callbackUrl : "/"
  const error = typeof params.error === "string" ? (messages[params.error] ?? "Sign-in failed.") : null
  return (
    <>
      <h1>Sign in</h1>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <form action={signInWithPassword}>
        <input type="hidden" name="redirectTo" value={callbackUrl} />
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit">Sign in with email and password</button>
      </form>
      {process.env.AUTH_DEV_IDP_ISSUER ? (
        <form action={signInWithIdp}>
          <input type="hidden" name="redirectTo" value={callbackUrl} />
          <button type="submit">Sign in with Sesame Dev IdP</button>
        </form>
      ) : null}
    </>
  )
}
