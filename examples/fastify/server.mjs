/**
 * `npm start`: the example on http://localhost:3000 (`PORT`, `HOST` change where it listens).
 *
 * It starts `@sesame/dev-mailbox`, where the password accounts' emails go (shown on
 * `/dev/mailbox`). With `SESAME_DEV_IDP=1` (and no `AUTH_DEV_IDP_ISSUER`), it also starts
 * `@sesame/dev-idp`, a real OpenID provider on 127.0.0.1 where you pick an account, and offers it
 * as "Sesame Dev IdP".
 */
import { randomBytes } from "node:crypto"
import { startDevIdp } from "@sesame/dev-idp"
import { startMailbox } from "@sesame/dev-mailbox"
import { createApp } from "./app.mjs"
import { createAuthConfig, demoAccount } from "./auth.mjs"

const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? "127.0.0.1"

/** The development IdP, with this app registered as a client for both loopback names. */
async function localIdp() {
  const clientId = "sesame-fastify-example"
  const clientSecret = randomBytes(24).toString("base64url")
  const idp = await startDevIdp({
    interactive: true,
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`http://localhost:${port}/auth/callback/dev-idp`, `http://127.0.0.1:${port}/auth/callback/dev-idp`],
      },
    ],
    accounts: [
      { id: "ada", email: "ada@example.com", name: "Ada Lovelace" },
      { id: "grace", email: "grace@example.com", name: "Grace Hopper" },
    ],
  })
  return { idp, provider: { issuer: idp.issuer, clientId, clientSecret } }
}

const local = process.env.SESAME_DEV_IDP === "1" && !process.env.AUTH_DEV_IDP_ISSUER ? await localIdp() : undefined
const mailbox = await startMailbox()
const app = await createApp(createAuthConfig({ devIdp: local?.provider, mailbox: mailbox.url }), { mailbox })

await app.listen({ port, host })
console.log(`Sesame Fastify example: http://localhost:${port}`)
console.log(`Demo account: ${demoAccount.email} / ${demoAccount.password}`)
console.log(`Development mailbox: http://localhost:${port}/dev/mailbox`)
if (local) console.log(`Sesame Dev IdP at ${local.idp.issuer} (pick Ada or Grace there)`)
else if (process.env.AUTH_DEV_IDP_ISSUER) console.log(`OpenID provider: ${process.env.AUTH_DEV_IDP_ISSUER}`)
else console.log("No OpenID provider: start with SESAME_DEV_IDP=1 for a local one")

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    app.server.closeAllConnections()
    void app
      .close()
      .then(() => Promise.all([mailbox.close(), local?.idp.close()]))
      .then(() => process.exit(0))
  })
}
