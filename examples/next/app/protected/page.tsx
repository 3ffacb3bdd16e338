import { auth } from "../../auth"
import { rename, signOutEverywhere } from "../actions"

/** Only signed-in visitors get here: proxy.ts sends the others to the sign-in page. */
export default async function Protected() {
  const session = await auth()
  return (
    <>
      <h1>Protected page</h1>
      <p data-testid="protected-user">
        Hello, <strong>{session?.user?.name}</strong> ({session?.user?.email})
      </p>
      <form action={rename}>
        <label>
          Rename on the server
          <input name="name" required />
        </label>
        <button type="submit">Rename</button>
      </form>
      <form action={signOutEverywhere}>
        <button type="submit">Sign out</button>
      </form>
    </>
  )
}
