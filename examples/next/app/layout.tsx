import type { Metadata } from "next"
import Link from "next/link"
import type { ReactNode } from "react"
import { SessionProvider } from "@sesame/next/react"
import { auth, basePath } from "../auth"
import "./styles.css"

export const metadata: Metadata = { title: "Sesame on Next.js" }

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The session the page is rendered with: client components have it on their first render.
  const session = await auth()
  return (
    <html lang="en">
      <body>
        <header>
          <nav aria-label="Main">
            <Link href="/">Home</Link>
            <Link href="/protected">Protected page</Link>
            {session ? null : <Link href="/signin">Sign in</Link>}
          </nav>
        </header>
        <SessionProvider session={session} basePath={basePath}>
          <main>{children}</main>
        </SessionProvider>
      </body>
    </html>
  )
}
