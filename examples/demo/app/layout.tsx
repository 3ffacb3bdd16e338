import type { Metadata } from "next"
import Link from "next/link"
import type { ReactNode } from "react"
import { isStorageUnavailable } from "@sesame/next"
import { basePath } from "../auth"
import { sessionOrOutage } from "../lib/session"
import { signOutAction } from "./actions"
import "./styles.css"

export const metadata: Metadata = { title: "Sesame demo" }

export default async function RootLayout({ children }: { children: ReactNode }) {
  // While the database cannot be reached, whether the visitor is signed in is not known: neither button.
  const session = await sessionOrOutage()
  return (
    <html lang="en">
      <body>
        <header>
          <nav aria-label="Main">
            <Link href="/">Home</Link>
            <Link href="/protected">Protected page</Link>
            <Link href="/organizations">Organizations</Link>
            {process.env.DEV_MAILBOX_URL ? <Link href="/dev/mailbox">Mailbox</Link> : null}
            {process.env.DEV_DNS_URL ? <Link href="/dev/dns">DNS</Link> : null}
            {process.env.AUTH_URL ? <Link href="/dev/partner">Partner notes</Link> : null}
            <span className="spacer" />
            {!isStorageUnavailable(session) && session?.organization ? (
              <span data-testid="active-organization" title="Your active organization">
                {session.organization.name}
              </span>
            ) : null}
            {isStorageUnavailable(session) ? null : session?.user ? (
              <form action={signOutAction}>
                <button type="submit">Sign out</button>
              </form>
            ) : (
              <a href={`${basePath}/signin`}>Sign in</a>
            )}
          </nav>
        </header>
        <main>{children}</main>
      </body>
    </html>
  )
}
