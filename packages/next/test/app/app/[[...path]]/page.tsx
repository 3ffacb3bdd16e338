import { SessionView } from "../session-view.js"

/** Every path: with the layout, three server components ask for the session. */
export default function Page() {
  return (
    <main>
      <SessionView id="page" />
      <section>
        <SessionView id="nested" />
      </section>
    </main>
  )
}
