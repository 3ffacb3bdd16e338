import { createRootRoute, HeadContent, Outlet, Scripts } from "@tanstack/react-router"
import type { ReactNode } from "react"
import { whoAmI } from "../functions"

export const Route = createRootRoute({
  beforeLoad: async () => ({ email: await whoAmI() }),
  shellComponent: ({ children }: { children: ReactNode }) => (
    <html lang="en">
      <head>
        <HeadContent />
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  ),
  component: () => {
    const { email } = Route.useRouteContext()
    return (
      <>
        <p data-testid="user">{email ?? "nobody"}</p>
        <Outlet />
      </>
    )
  },
})
