/**
 * The app's pages, as HTML strings: every value from a request or a session is escaped, and no
 * page has a script (the app's Content-Security-Policy allows none).
 */

/** `value` as text in HTML, in an element or an attribute. */
export function escape(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

export const stylesheet = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}
nav{display:flex;gap:1rem;align-items:center;border-bottom:1px solid #ddd;padding-bottom:.5rem}
nav form{margin-left:auto}form.signin{display:grid;gap:.5rem;max-width:20rem;margin:1rem 0}
label{display:grid}p[role=alert]{color:#a00}code{background:#f4f4f4;padding:0 .25rem}`

function layout(title, session, body) {
  const user = session?.user
  const status = user
    ? `<span data-testid="session-status">Signed in as ${escape(user.name ?? user.email)}</span>
       <form method="post" action="/logout"><button type="submit">Sign out</button></form>`
    : `<span data-testid="session-status">Not signed in</span> <a href="/login">Sign in</a>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Sesame on Express</title><link rel="stylesheet" href="/style.css"></head>
<body><nav><a href="/">Home</a><a href="/account">Account</a><a href="/api/me">/api/me</a>${status}</nav>
<main><h1>${escape(title)}</h1>${body}</main></body></html>`
}

export function homePage(session) {
  const body = session?.user
    ? `<p>You are signed in. Your <a href="/account">account page</a> is open to you, and so is <a href="/api/me">/api/me</a>.</p>`
    : `<p>You are not signed in. <a href="/account">Account</a> and <a href="/api/me">/api/me</a> are guarded: they send you to sign in first.</p>`
  return layout("Home", session, body)
}

export function accountPage(session) {
  const { user } = session
  return layout(
    "Account",
    session,
    `<p data-testid="account">Signed in as <strong>${escape(user.name)}</strong> (${escape(user.email)}), user id <code>${escape(user.id)}</code>.</p>`,
  )
}

/** The messages for the `error` codes Sesame sends back to the sign-in page; never the code itself. */
const messages = {
  CredentialsSignin: "Wrong email or password.",
  AccessDenied: "The sign-in was cancelled.",
}

/**
 * The sign-in page: the credentials form, and the OpenID provider's button when there is one.
 * `error` is a code (shown as a fixed message); `email` refills the form after a failed attempt.
 */
export function loginPage({ session, callbackUrl, error, email, oidcName }) {
  const alert = error ? `<p role="alert">${escape(messages[error] ?? "The sign-in did not work. Try again.")}</p>` : ""
  const back = `<input type="hidden" name="callbackUrl" value="${escape(callbackUrl)}">`
  const oidc = oidcName
    ? `<form method="post" action="/login/dev-idp">${back}<button type="submit">Sign in with ${escape(oidcName)}</button></form>`
    : ""
  return layout(
    "Sign in",
    session,
    `${alert}
<form class="signin" method="post" action="/login">${back}
<label>Email <input name="email" type="email" autocomplete="username" required value="${escape(email)}"></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in with email and password</button></form>
<p>The demo account is <code>demo@example.com</code> / <code>sesame-demo</code>.</p>
${oidc}`,
  )
}

export function refusedPage(session) {
  return layout("Refused", session, `<p role="alert">This form must be sent from this site.</p>`)
}
