/**
 * `npm start`: the Hono app on Node.js through @hono/node-server, on http://localhost:$PORT (3000).
 *
 * Without `AUTH_DEV_IDP_ISSUER`, it first starts the Sesame Dev IdP (a real OpenID provider on
 * 127.0.0.1, where you pick a test account) and points the app at it. Ctrl-C stops both.
 */
import { randomBytes } from "node:crypto"
import { serve } from "@hono/node-server"
import { startDevIdp } from "@sesame/dev-idp"

const port = Number(process.env.PORT ?? 3000)
const hostname = process.env.HOST ?? "127.0.0.1"
if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a port number, not ${process.env.PORT}`)

let idp
if (!process.env.AUTH_DEV_IDP_ISSUER) {
  const client = { client_id: "sesame-hono-example", client_secret: randomBytes(32).toString("base64url") }
  idp = await startDevIdp({
    // The browser may open the app on either loopback name; the callback is Sesame's, under /auth.
    clients: [{ ...client, redirect_uris: ["localhost", "127.0.0.1"].map((host) => `http://${host}:${port}/auth/callback/dev-idp`) }],
    accounts: [
      { id: "ada", email: "ada@example.com", name: "Ada Lovelace" },
      { id: "grace", email: "grace@example.com", name: "Grace Hopper" },
    ],
    interactive: true,
  })
  Object.assign(process.env, { AUTH_DEV_IDP_ISSUER: idp.issuer, AUTH_DEV_IDP_ID: client.client_id, AUTH_DEV_IDP_SECRET: client.client_secret })
}

// Imported once the environment says which providers there are.
const { authConfig } = await import("./auth.mjs")
const { createApp } = await import("./app.mjs")

const server = serve({ fetch: createApp(authConfig).fetch, port, hostname }, () => {
  console.log(`Sesame on Hono: http://localhost:${port}`)
  console.log("Demo account: demo@example.com / sesame-demo")
  if (idp) console.log(`Sesame Dev IdP at ${idp.issuer}: pick Ada Lovelace or Grace Hopper`)
})

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close()
    void (idp?.close() ?? Promise.resolve()).then(() => process.exit(0))
  })
}
