import { describe, expect, it } from "vitest"
import { CredentialsSignin } from "@sesame/core/errors"
import type { AuthConfig } from "@sesame/core"
import { aliceCredentials, CookieJar, csrfToken, jwtConfig, recordingLogger, secret, send, signInAlice, users } from "./helpers.js"

describe("logging", () => {
  it("never contains the secret, session or CSRF tokens, or a password, even with debug on", async () => {
    const { lines, logger } = recordingLogger()
    const failing = aliceCredentials({
      id: "failing",
      authorize: () => {
        throw new CredentialsSignin()
      },
    })
    const config: AuthConfig = jwtConfig({ debug: true, logger, providers: [aliceCredentials(), failing] })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    await send(config, "/auth/session", { jar })
    const token = await csrfToken(config, jar)
    await send(config, "/auth/session", { jar, json: { csrfToken: token, data: { x: 1 } } })
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: "wrong-password-value" } })
    await send(config, "/auth/callback/failing", { jar, form: { csrfToken: token, username: "alice", password: users.alice.password } })
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: "f".repeat(64), password: users.alice.password } })
    await send(config, "/auth/session", { cookie: "sesame.session-token=garbage-token-value" })
    await send(config, "/auth/signout", { jar, form: { csrfToken: token } })

    const sessionToken = [...jar.cookies.values()].join(" ")
    const log = lines.join("\n")
    expect(lines.length).toBeGreaterThan(3)
    for (const secretValue of [secret, users.alice.password, "wrong-password-value", token, "garbage-token-value"]) {
      expect(log).not.toContain(secretValue)
    }
    for (const cookieValue of sessionToken.split(" ").filter((v) => v.length > 20)) expect(log).not.toContain(cookieValue)
  })
})
