/**
 * Calls `Auth()` the way a browser on http://localhost:3000 would: it keeps the cookies it is
 * given (and drops the ones deleted), and posts forms or JSON.
 */
import { Auth, type AuthConfig } from "@sesame/core"

export const origin = "http://localhost:3000"

export function browser(config: AuthConfig) {
  const cookies = new Map<string, string>()
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  const call = async (path: string, body?: { form?: Record<string, string>; json?: unknown }) => {
    const headers = new Headers({ cookie: cookie() })
    let payload: string | undefined
    if (body?.form) {
      headers.set("content-type", "application/x-www-form-urlencoded")
      payload = new URLSearchParams(body.form).toString()
    } else if (body?.json !== undefined) {
      headers.set("content-type", "application/json")
      payload = JSON.stringify(body.json)
    }
    const res = await Auth(new Request(`${origin}${path}`, { method: payload === undefined ? "GET" : "POST", headers, body: payload }), config)
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";")
      const name = pair!.slice(0, pair!.indexOf("="))
      if (/Max-Age=0/.test(c)) cookies.delete(name)
      else cookies.set(name, pair!.slice(pair!.indexOf("=") + 1))
    }
    return res
  }
  /** A request to the app carrying the cookies, as the app's own routes receive it. */
  const request = (path = "/") => new Request(`${origin}${path}`, { headers: { cookie: cookie() } })
  return { cookies, call, request }
}
