/**
 * The app the browser tests talk to: `Auth()` under several base paths (one configuration each,
 * `/password` with a memory adapter and a password provider whose emails are recorded), the
 * every-kind sign-in fixture, and two plain pages to land on after signing in.
 */
import { StorageUnavailable } from "@sesame/core/errors"
import { unavailableAnswer } from "@sesame/core/integration"
import { Auth, type AuthConfig } from "@sesame/core"
import { serve, type TestServer } from "@sesame/testing"
import { aliceCredentials, secret } from "../helpers.js"
import {
  allKinds,
  credentialsProvider,
  emailProvider,
  oauthProvider,
  oidcProvider,
  passwordSetup,
  renderSignIn,
  svgLogo,
  type PasswordSetup,
} from "./fixtures.js"

/** A payload that sets `window.__xss` if any of it runs, in markup and attribute-breaking forms. */
export const payload = `<script>window.__xss=1</script>"><img src=x onerror="window.__xss=2">'><svg onload='window.__xss=3'>`

const quiet = { error: () => {}, warn: () => {} }

function config(basePath: string, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, basePath, providers: [aliceCredentials()], logger: quiet, ...overrides }
}

/** Base path → configuration. */
function configs(otherOrigin: string, password: PasswordSetup): Map<string, AuthConfig> {
  return new Map([
    ["/password", password.config],
    ["/auth", config("/auth")],
    ["/themed", config("/themed", { theme: { brandColor: "#ffd60a", logo: svgLogo } })],
    ["/dark", config("/dark", { theme: { colorScheme: "dark" } })],
    ["/light", config("/light", { theme: { colorScheme: "light" } })],
    // An adapter-less database strategy: every request is a configuration error.
    ["/broken", config("/broken", { session: { strategy: "database" } })],
    [
      "/xss",
      config("/xss", {
        providers: [
          {
            ...credentialsProvider(payload),
            credentials: { [`user${payload}`]: { label: payload, placeholder: payload, autocomplete: payload, value: payload } },
          },
        ],
        messages: { en: { "signout.confirm": payload } },
      }),
    ],
    // Lets callback URLs go to another origin, as an app's redirect callback may.
    [
      "/away",
      config("/away", { callbacks: { redirect: ({ url, baseUrl }) => (url.startsWith(otherOrigin) || url.startsWith(baseUrl) ? url : baseUrl) } }),
    ],
  ])
}

const landing = (title: string) =>
  new Response(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1></main></body></html>`, {
    headers: { "content-type": "text/html; charset=utf-8" },
  })

export interface BrowserApp extends TestServer {
  /** The same server under another origin (`localhost` instead of `127.0.0.1`). */
  otherOrigin: string
  /** The configuration under `/password`, and the emails its provider sent. */
  password: PasswordSetup
}

export async function startApp(): Promise<BrowserApp> {
  let byBase = new Map<string, AuthConfig>()
  let origin = ""
  const server = await serve((request) => {
    const url = new URL(request.url)
    const base = `/${url.pathname.split("/")[1]}`
    const found = byBase.get(base)
    if (found) return Auth(request, found)
    switch (url.pathname) {
      case "/fixture/signin":
        return renderSignIn(request, { authUrl: `${origin}/auth` })
      case "/fixture/xss":
        return renderSignIn(request, {
          authUrl: `${origin}/auth`,
          providers: [
            oauthProvider({ name: payload, style: { brandColor: `red;}</style>${payload}`, logo: "javascript:window.__xss=4" } }),
            oidcProvider({ name: payload, style: { bg: "red}body{display:none", logo: `/logo.svg${payload}` } }),
            emailProvider({ name: payload }),
            ...allKinds().filter((p) => p.type === "credentials"),
          ],
        })
      case "/fixture/unavailable": {
        // What a guard answers while the storage cannot be reached (the core's endpoints answer the same page).
        const answer = unavailableAnswer(config("/auth"), { headers: request.headers, url: request.url }, new StorageUnavailable())
        return new Response(answer.body, { status: answer.status, headers: answer.headers })
      }
      case "/private":
        return landing("Private area")
      case "/landed":
        return landing("Landed on another origin")
      default:
        return new Response("not found", { status: 404 })
    }
  })
  origin = server.origin
  const otherOrigin = origin.replace("127.0.0.1", "localhost")
  const password = passwordSetup("/password")
  byBase = configs(otherOrigin, password)
  return { ...server, otherOrigin, password }
}
