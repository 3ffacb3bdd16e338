/**
 * The public types with Express 5's own declarations (@types/express), checked by the repository's
 * type check (`tsc -p tsconfig.json`): the middlewares fit `app.use`, `router.use` and routes, and
 * the handlers after a guard see `res.locals.session` with a user, after `sessionLocals` a session
 * that may be null. At run time, the same app answers.
 */
import express from "express"
import { describe, expect, it } from "vitest"
import { getSession, requireSession, SesameAuth, sessionLocals, signIn, signOut, unavailableHandler } from "@sesame/express"
import { config, send, serve } from "./helpers.js"

function typedApp() {
  const authConfig = config()
  const app = express()
  app.use(SesameAuth(authConfig))
  const router = express.Router()
  router.use(sessionLocals(authConfig))
  router.use("/admin", requireSession(authConfig))
  app.use(router)
  app.get("/guarded", requireSession(authConfig), (_req, res) => {
    const email: string | null | undefined = res.locals.session.user.email
    res.send(email)
  })
  app.get("/maybe", sessionLocals(authConfig), (_req, res) => {
    // @ts-expect-error without a guard, the session may be null
    res.send(res.locals.session.user)
  })
  app.post("/both", async (req, res) => {
    const session = await getSession(req, authConfig)
    if (session) await signOut(req, res, authConfig)
    else await signIn(req, res, authConfig)
  })
  // An error handler, as Express's types see one.
  app.use(unavailableHandler(authConfig))
  return app
}

describe("types", () => {
  it("an app typed with @types/express answers", async () => {
    const served = await serve(typedApp())
    expect((await send(served, "/guarded")).status).toBe(303)
    expect((await send(served, "/admin/x")).status).toBe(303)
    expect((await send(served, "/both", { method: "POST" })).headers.get("location")).toBe(`${served.origin}/auth/signin?callbackUrl=%2F`)
  })
})
