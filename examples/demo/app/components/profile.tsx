/**
 * The home page's "Profile": the demo's user fields as `session.user` carries them. The role is the
 * app's to set (users cannot: `input` is off); the language is the user's, saved with
 * `updateUserFields` by the form's server action.
 */
import { chooseLanguageAction } from "../actions"
import { languages } from "../../lib/languages"

export function Profile({ role, language }: { role: string | undefined; language: string | null | undefined }) {
  return (
    <section aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <p>
        Role: <strong data-testid="role">{role ?? "member"}</strong> <span className="muted">(set by the app)</span>
      </p>
      <form action={chooseLanguageAction}>
        <label htmlFor="language">Language</label>{" "}
        <select id="language" name="language" defaultValue={language ?? "en"} data-testid="language">
          {Object.entries(languages).map(([tag, name]) => (
            <option key={tag} value={tag} lang={tag}>
              {name}
            </option>
          ))}
        </select>{" "}
        <button type="submit">Save language</button>
      </form>
    </section>
  )
}
