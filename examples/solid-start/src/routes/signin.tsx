import { createAsync, query, useNavigate } from "@solidjs/router"
import { createSignal, For, Show } from "solid-js"
import { signIn } from "@sesame/solid-start/client"
import { oauthProviders } from "~/lib/session"

const getProviders = query(() => oauthProviders(), "oauth-providers")

/** The app's own sign-in page, built on the client's signIn. */
export default function SignIn() {
  const providers = createAsync(() => getProviders())
  const navigate = useNavigate()
  const [error, setError] = createSignal<string>()
  const [busy, setBusy] = createSignal(false)

  async function submit(event: SubmitEvent & { currentTarget: HTMLFormElement }) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setBusy(true)
    const result = await signIn("credentials", { email: form.get("email"), password: form.get("password"), redirect: false })
    setBusy(false)
    if (result?.ok) navigate("/account")
    else setError("Sign in failed. Check the details you provided are correct.")
  }

  return (
    <>
      <h1>Sign in</h1>
      {/* method="post": a submission before the page is interactive must not put the password in the URL. */}
      <form method="post" onSubmit={submit}>
        <label>
          Email
          <input name="email" type="email" autocomplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <Show when={error()}>
          <p role="alert">{error()}</p>
        </Show>
        <button type="submit" disabled={busy()}>
          Sign in
        </button>
      </form>
      <For each={providers()}>
        {(provider) => (
          <p>
            <button type="button" onClick={() => signIn(provider.id, { callbackUrl: "/account" })}>
              Sign in with {provider.name}
            </button>
          </p>
        )}
      </For>
    </>
  )
}
