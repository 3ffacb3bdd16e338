/**
 * Module augmentation of Session and JWT, as the package README shows it. `npm test` type-checks
 * this file: if augmentation stopped working, the assignments below would not compile.
 */
import { describe, expect, it } from "vitest"
import type { Session } from "@sesame/core"
import type { JWT } from "@sesame/core/jwt"
import { CookieJar, jwtConfig, send, signInAlice } from "./helpers.js"

declare module "@sesame/core" {
  interface Session {
    role?: string
  }
}
declare module "@sesame/core/jwt" {
  interface JWT {
    role?: string
  }
}

describe("type augmentation", () => {
  it("adds typed fields to Session and JWT", async () => {
    const config = jwtConfig({
      callbacks: {
        jwt: ({ token, user }) => {
          if (user) token.role = "admin"
          const typed: JWT = token
          return typed
        },
        session: ({ session, token }) => {
          const role: string | undefined = token.role
          const typed: Session = { ...session, role }
          return typed
        },
      },
    })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const session = (await (await send(config, "/auth/session", { jar })).json()) as Session
    const role: string | undefined = session.role
    expect(role).toBe("admin")
  })
})
