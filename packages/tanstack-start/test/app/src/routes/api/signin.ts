// signIn from a server route's handler, with the form's fields; `redirect: false` when asked.
import { CredentialsSignin } from "@sesame/core/errors"
import { signIn } from "@sesame/tanstack-start"
import { createFileRoute } from "@tanstack/react-router"

export const Route = createFileRoute("/api/signin")({
  server: {
    handlers: {
      POST: async ({ request }) => {
        const form = await request.formData()
        const fields = { email: String(form.get("email")), password: String(form.get("password")), redirectTo: "/private" }
        try {
          if (form.get("redirect") === "false") return Response.json({ url: await signIn("credentials", { ...fields, redirect: false }) })
          return Response.json({ url: await signIn("credentials", fields) })
        } catch (error) {
          if (error instanceof CredentialsSignin) return Response.json({ error: error.code }, { status: 401 })
          throw error
        }
      },
    },
  },
})
