import type { ReactNode } from "react"
import { SessionView } from "./session-view.js"

export default function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <SessionView id="layout" />
        {children}
      </body>
    </html>
  )
}
