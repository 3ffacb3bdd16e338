"use client"
/** The session as the browser sees it (`useSession`), with update and sign-out from the browser. */
import { signOut, useSession } from "@sesame/next/react"
import { useState, type FormEvent } from "react"

export function SessionStatus() {
  const { data, status, update } = useSession()
  const [name, setName] = useState("")

  async function onRename(event: FormEvent) {
    event.preventDefault()
    await update({ user: { name } })
    setName("")
  }

  return (
    <section aria-labelledby="client-heading">
      <h2 id="client-heading">In the browser</h2>
      <p data-testid="client-status">{status}</p>
      {data?.user ? (
        <>
          <p data-testid="client-user">
            {data.user.name} ({data.user.email})
          </p>
          <form onSubmit={onRename}>
            <label>
              New name
              <input name="name" value={name} onChange={(event) => setName(event.target.value)} required />
            </label>
            <button type="submit">Update the session</button>
          </form>
          <button type="button" onClick={() => void signOut({ redirectTo: "/" })}>
            Sign out (from the browser)
          </button>
        </>
      ) : null}
    </section>
  )
}
