// An API server that trusts the API tokens of a Sesame app (`apiTokens` in the app's
// configuration). It shares no secret with the app: it checks each token's signature against the
// app's published keys (`<basePath>/jwks`), and its issuer, audience and lifetime.
//
//   APP_AUTH_URL=http://localhost:3000/auth API_AUDIENCE=https://api.example.com npm start
//   curl -H "Authorization: Bearer <token from GET /auth/token>" http://localhost:4000/me
import { createServer } from "node:http"
import { ApiTokenError, verifyApiToken } from "@sesame/core/verify"

const appAuthUrl = process.env.APP_AUTH_URL ?? "http://localhost:3000/auth"
const audience = process.env.API_AUDIENCE ?? "https://api.example.com"
const port = Number(process.env.PORT ?? 4000)

function send(res, status, body) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
  res.end(JSON.stringify(body))
}

const server = createServer(async (req, res) => {
  if (req.method !== "GET" || req.url !== "/me") return send(res, 404, { error: "not-found" })
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1]
  if (!token) {
    res.setHeader("www-authenticate", 'Bearer realm="api"')
    return send(res, 401, { error: "no-token" })
  }
  try {
    const claims = await verifyApiToken(token, { jwksUrl: `${appAuthUrl}/jwks`, issuer: appAuthUrl, audience })
    send(res, 200, { user: claims.sub, plan: claims.plan ?? null })
  } catch (error) {
    if (!(error instanceof ApiTokenError)) throw error
    res.setHeader("www-authenticate", `Bearer realm="api", error="invalid_token"`)
    send(res, error.code === "keys-unavailable" ? 503 : 401, { error: error.code })
  }
})

server.listen(port, "127.0.0.1", () => console.log(`API server on http://127.0.0.1:${port}, trusting ${appAuthUrl}`))
