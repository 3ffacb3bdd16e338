// app/routes/signin.tsx, at /signin: the app's own sign-in page (`pages.signIn` in
// app/auth.server.ts). The guards send visitors here with `callbackUrl`, the way back. Its forms
// post to this route's action, which signs in on the server with `signIn` and answers with Sesame's
// redirect (and cookies); React Router's <Form> does it with a fetch when JavaScript runs, and the
// browser posts the form itself when it does not.
import { CredentialsSignin } from "@sesame/core/errors"
import { signIn } from "@sesame/react-router"
import { data, Form } from "react-router"
import type { Route } from "./+types/signin"
import { oidcProvider } from "../auth.server"

export const meta: Route.MetaFunction = () => [{ title: "Sign in · Sesame on React Router" }]

const field = (form: FormData, name: string) => {
  const value = form.get(name)
  return typeof value === "string" ? value : ""
}

export function loader({ request }: Route.LoaderArgs) {
  // Sesame keeps the way back on this site whatever it says.
  const redirectTo = new URL(request.url).searchParams.get("callbackUrl") || "/"
  // What the page shows of the OpenID Connect provider (the configuration stays on the server).
  return { redirectTo, oidc: oidcProvider ? { id: oidcProvider.id, name: oidcProvider.name } : null }
}

export async function action(args: Route.ActionArgs) {
  const form = await args.request.formData()
  const redirectTo = field(form, "redirectTo") || "/"
  const provider = field(form, "provider")
  // To the provider's authorization page, and back through /auth/callback/dev-idp.
  if (oidcProvider && provider === oidcProvider.id) return signIn(args, oidcProvider.id, { redirectTo })
  const email = field(form, "email")
  try {
    // Only the fields meant for the provider, never the whole form.
    return await signIn(args, provider === "password" ? "password" : "credentials", { redirectTo, email, password: field(form, "password") })
  } catch (error) {
    if (!(error instanceof CredentialsSignin)) throw error
    return data({ error: "Wrong email or password.", provider, email }, { status: 401 })
  }
}

export default function SignIn({ loaderData: { redirectTo, oidc }, actionData }: Route.ComponentProps) {
  const signUp = `/auth/signup?${new URLSearchParams({ callbackUrl: redirectTo })}`
  return (
    <>
      <h1>Sign in</h1>
      {actionData?.error && <p role="alert">{actionData.error}</p>}

      <h2>Demo account</h2>
      <Form className="signin" method="post">
        <input type="hidden" name="provider" value="credentials" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <label>
          Email <input name="email" type="email" autoComplete="username" defaultValue={actionData?.provider === "credentials" ? actionData.email : ""} required />
        </label>
        <label>
          Password <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button>Sign in with the demo account</button>
      </Form>
      <p>
        The demo account is <code>demo@example.com</code> / <code>sesame-demo</code>.
      </p>

      <h2>Password account</h2>
      <Form className="signin" method="post">
        <input type="hidden" name="provider" value="password" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <label>
          Account email <input name="email" type="email" autoComplete="username" defaultValue={actionData?.provider === "password" ? actionData.email : ""} required />
        </label>
        <label>
          Account password <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button>Sign in with a password account</button>
      </Form>
      {/* Sesame's built-in page, under the resource route: a document, not a React Router page. */}
      <p>
        <a href={signUp}>Create a password account</a>
      </p>

      {oidc && (
        <>
          <h2>OpenID Connect</h2>
          <Form method="post">
            <input type="hidden" name="provider" value={oidc.id} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button>Sign in with {oidc.name}</button>
          </Form>
        </>
      )}
    </>
  )
}
