/**
 * The interactive login page: a person picks one of the test accounts (no password, it is a
 * development IdP), or cancels, which answers the client with `error=access_denied`.
 *
 * @module
 */
import type { DevIdpAccount } from "./types.js"

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c]!)
}

export function loginPage(params: { name: string; uid: string; clientId: string; accounts: readonly DevIdpAccount[] }): string {
  const action = `/interaction/${encodeURIComponent(params.uid)}`
  const buttons = params.accounts
    .map(
      (a) => `<button type="submit" name="account" value="${escape(a.id)}">
  <strong>${escape(a.name)}</strong><span>${escape(a.email)}</span>
</button>`,
    )
    .join("\n")
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(params.name)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f4f5; color: #18181b; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  main { background: #fff; border-radius: 12px; box-shadow: 0 1px 4px rgb(0 0 0 / 12%); padding: 2rem; width: min(22rem, 90vw); }
  h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
  p { color: #52525b; margin: 0 0 1.5rem; font-size: .9rem; }
  form { display: grid; gap: .75rem; }
  button { display: grid; text-align: left; gap: .125rem; padding: .75rem 1rem; border: 1px solid #d4d4d8; border-radius: 8px; background: #fff; font: inherit; cursor: pointer; }
  button:hover { border-color: #6366f1; }
  button span { color: #52525b; font-size: .85rem; }
  button.cancel { text-align: center; border: none; color: #52525b; }
</style>
</head>
<body>
<main>
<h1>${escape(params.name)}</h1>
<p>Sign in to <code>${escape(params.clientId)}</code> as one of the test accounts.</p>
<form method="post" action="${action}/login">
${buttons}
</form>
<form method="post" action="${action}/abort">
<button class="cancel" type="submit">Cancel</button>
</form>
</main>
</body>
</html>`
}
