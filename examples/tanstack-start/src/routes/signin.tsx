// src/routes/signin.tsx, at /signin: the app's own sign-in page (`pages.signIn` in src/auth.ts).
// The guards send visitors here with `callbackUrl`, the way back. Its forms call the signInWith
// server function, which signs in on the server with `signIn`; the redirect it answers with (and
// the cookies) take the browser back: `useServerFn` has the router follow it.
import { createFileRoute } from "@tanstack/react-router"
import { useServerFn } from "@tanstack/react-start"
import { useState, type FormEvent } from "react"
import { signInOptions, signInWith } from "../session"

export const Route = createFileRoute("/signin")({
  // Sesame keeps the way back on this site whatever it says.
  validateSearch: (search: Record<string, unknown>): { callbackUrl?: string } => (typeof search.callbackUrl === "string" ? { callbackUrl: search.callbackUrl } : {}),
  loader: () => signInOptions(),
  head: () => ({ meta: [{ title: "Sign in · Sesame on TanStack Start" }] }),
  component: SignIn,
})

function SignIn() {
  const { callbackUrl } = Route.useSearch()
  const { oidc } = Route.useLoaderData()
  const redirectTo = callbackUrl || "/"
  const [error, setError] = useState<string | null>(null)
  const signInFn = useServerFn(signInWith)
  const submit = (provider: string) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const text = (name: string) => {
      const value = form.get(name)
      return typeof value === "string" ? value : ""
    }
    const result: { error: string | null } | undefined = await signInFn({ data: { provider, email: text("email"), password: text("password"), redirectTo } })
    // Nothing comes back when the server function redirected: the router is on its way.
    setError(result?.error ?? null)
  }
  const signUp = `/auth/signup?${new URLSearchParams({ callbackUrl: redirectTo })}`
  return (
    <>
      <h1>Sign in</h1>
      {error && <p role="alert">{error}</p>}

      <h2>Demo account</h2>
      <form className="signin" onSubmit={submit("credentials")}>
        <label>
          Email <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button>Sign in with the demo account</button>
      </form>
      <p>
        The demo account is <code>demo@example.com</code> / <code>sesame-demo</code>.
      </p>

      <h2>Password account</h2>
      <form className="signin" onSubmit={submit("password")}>
        <label>
          Account email <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Account password <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button>Sign in with a password account</button>
      </form>
      {/* Sesame's built-in page, under the server route: a document, not a page of the router. */}
      <p>
        <a href={signUp}>Create a password account</a>
      </p>

      {oidc && (
        <>
          <h2>OpenID Connect</h2>
          <form onSubmit={submit(oidc.id)}>
            <button>Sign in with {oidc.name}</button>
          </form>
        </>
      )}
    </>
  )
}
