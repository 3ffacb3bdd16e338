/**
 * The app's pages, as HTML strings: every value from a request or a session is escaped, and the
 * only script is the app's own `/session.js` (the Content-Security-Policy allows no other).
 */

/** `value` as text in HTML, in an element or an attribute. */
export function escape(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

export const stylesheet = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}
nav{display:flex;gap:1rem;align-items:center;border-bottom:1px solid #ddd;padding-bottom:.5rem}
nav form{margin-left:auto}form.signin{display:grid;gap:.5rem;max-width:20rem;margin:1rem 0}
label{display:grid}p[role=alert]{color:#a00}code{background:#f4f4f4;padding:0 .25rem}`

/**
 * The session on the client: the browser asks Sesame's `/auth/session` itself (with its cookie)
 * and writes the name it gets into the page.
 */
export const sessionScript = `const output = document.querySelector("[data-testid=client-session]")
fetch("/auth/session", { headers: { accept: "application/json" } })
  .then((response) => response.json())
  .then((session) => { output.textContent = session && session.user ? "The browser sees " + (session.user.name || session.user.email) : "The browser sees no session" })
  .catch(() => { output.textContent = "The browser could not read the session" })
`

function layout(title, session, body) {
  const user = session?.user
  const status = user
    ? `<span data-testid="session-status">Signed in as ${escape(user.name ?? user.email)}</span>
       <form method="post" action="/logout"><button type="submit">Sign out</button></form>`
    : `<span data-testid="session-status">Not signed in</span> <a href="/login">Sign in</a>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Sesame on Fastify</title><link rel="stylesheet" href="/style.css"><script type="module" src="/session.js"></script></head>
<body><nav><a href="/">Home</a><a href="/account">Account</a><a href="/api/me">/api/me</a>${status}</nav>
<main><h1>${escape(title)}</h1>${body}<p data-testid="client-session" aria-live="polite"></p></main></body></html>`
}

export function homePage(session) {
  const body = session?.user
    ? `<p>You are signed in. Your <a href="/account">account page</a> is open to you, and so is <a href="/api/me">/api/me</a>.</p>`
    : `<p>You are not signed in. <a href="/account">Account</a> and <a href="/api/me">/api/me</a> are guarded: they send you to sign in first.</p>`
  return layout("Home", session, body)
}

export function accountPage(session) {
  const { user } = session
  return layout("Account", session, `<p data-testid="account">Signed in as <strong>${escape(user.name ?? "")}</strong> (${escape(user.email)}).</p>`)
}

/** The messages for the `error` codes Sesame sends back to the sign-in page; never the code itself. */
const messages = {
  CredentialsSignin: "Wrong email or password.",
  AccessDenied: "The sign-in was cancelled.",
}

/**
 * The sign-in page: the demo account's form, the password account's form with a link to Sesame's
 * sign-up page, and the OpenID provider's button when there is one. `error` is a code (shown as a
 * fixed message); `email` refills the form after a failed attempt.
 */
export function loginPage({ session, callbackUrl, error, email, oidcName }) {
  const alert = error ? `<p role="alert">${escape(messages[error] ?? "The sign-in did not work. Try again.")}</p>` : ""
  const back = `<input type="hidden" name="callbackUrl" value="${escape(callbackUrl)}">`
  const oidc = oidcName ? `<form method="post" action="/login/dev-idp">${back}<button type="submit">Sign in with ${escape(oidcName)}</button></form>` : ""
  const signUp = `/auth/signup?${new URLSearchParams({ callbackUrl })}`
  return layout(
    "Sign in",
    session,
    `${alert}
<h2>Demo account</h2>
<form class="signin" method="post" action="/login">${back}<input type="hidden" name="provider" value="credentials">
<label>Email <input name="email" type="email" autocomplete="username" required value="${escape(email)}"></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in with the demo account</button></form>
<p>The demo account is <code>demo@example.com</code> / <code>sesame-demo</code>.</p>
<h2>Password account</h2>
<form class="signin" method="post" action="/login">${back}<input type="hidden" name="provider" value="password">
<label>Account email <input name="email" type="email" autocomplete="username" required></label>
<label>Account password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in with a password account</button></form>
<p><a href="${escape(signUp)}">Create a password account</a></p>
${oidc}`,
  )
}

export function refusedPage(session) {
  return layout("Refused", session, `<p role="alert">This form must be sent from this site.</p>`)
}

/** The development mailbox: every message it received, newest first, links as text. */
export function mailboxPage(session, messages) {
  const items = messages
    .slice()
    .reverse()
    .map((m) => `<li><strong>${escape(m.subject)}</strong> to ${escape(m.to.join(", "))}<pre>${escape(m.text)}</pre></li>`)
    .join("")
  return layout("Development mailbox", session, items ? `<ul>${items}</ul>` : "<p>No message yet.</p>")
}
