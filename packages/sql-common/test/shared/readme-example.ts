/**
 * For the SQL adapters' README tests: load a README's example as a module, and sign in through the
 * app it exports, as a browser would.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export interface ExampleApp {
  fetch(request: Request): Promise<Response>
}

/** Imports the ```ts block after `<!-- example: name` in `readme`, written to `<scratch>/<name>.ts`. */
export async function loadExample<T>(readme: string, name: string, scratch: string): Promise<T> {
  const code = new RegExp(`<!-- example: ${name}[\\s\\S]*?\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(readFileSync(readme, "utf8"))![1]!
  mkdirSync(scratch, { recursive: true })
  const file = join(scratch, `${name}.ts`)
  writeFileSync(file, code)
  return (await import(file)) as T
}

/** Signs in with the credentials provider (email, password) and returns `GET /auth/session`. */
export async function signInThrough(app: ExampleApp, email: string, password: string): Promise<{ user?: { email?: string } } | null> {
  const origin = "http://localhost:3000"
  const csrf = await app.fetch(new Request(`${origin}/auth/csrf`))
  const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const signIn = await app.fetch(
    new Request(`${origin}/auth/callback/credentials`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email, password }).toString(),
    }),
  )
  const session = signIn.headers.getSetCookie().find((c) => c.startsWith("sesame.session-token="))!.split(";")[0]!
  return (await (await app.fetch(new Request(`${origin}/auth/session`, { headers: { cookie: session } }))).json()) as { user?: { email?: string } } | null
}
