/**
 * The stylesheet of the built-in pages. Colours are CSS variables: a colour scheme swaps the
 * palette and a theme sets the brand colours, so neither needs more than a few declarations.
 *
 * Both palettes keep body text above 7:1 and secondary text, links and the focus ring above 4.5:1
 * against their backgrounds, and form-field borders above 3:1 (WCAG 2.2 AA).
 *
 * The `hidden` attribute wins over every `display` set here: without that, `input{display:block}`
 * would show the hidden fields (the reset page's `username` field, there for password managers).
 *
 * @module
 */
import type { Theme } from "../types.js"

const lightPalette =
  "--bg:#f3f4f6;--card:#ffffff;--text:#1a1d23;--muted:#4b5261;--border:#d3d7de;--field-border:#767d8c;" +
  "--error-bg:#fdeaea;--error-text:#8f1d1d;--error-border:#e5a3a3;--link:#1d4ed8;--focus:#1d4ed8;color-scheme:light"
const darkPalette =
  "--bg:#121419;--card:#1d2027;--text:#eceef3;--muted:#aab1bf;--border:#343944;--field-border:#7d8596;" +
  "--error-bg:#3a1717;--error-text:#ffc2c2;--error-border:#7a3030;--link:#8ab4ff;--focus:#8ab4ff;color-scheme:dark"

/** The class on `<html>` for a colour scheme. */
export function schemeClass(scheme: Theme["colorScheme"]): string {
  return `scheme-${scheme === "dark" || scheme === "light" ? scheme : "auto"}`
}

export const css = `
:root{${lightPalette};--brand:#3b5bdb;--brand-text:#ffffff}
.scheme-dark{${darkPalette}}
@media (prefers-color-scheme:dark){.scheme-auto{${darkPalette}}}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px 16px;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Hiragino Sans","Yu Gothic UI",sans-serif;background:var(--bg);color:var(--text)}
main{width:100%;max-width:400px}
.logo{display:block;max-width:160px;max-height:64px;margin:0 auto 24px}
.card{background:var(--card);border:1px solid var(--border);border-radius:12px;padding:32px 28px;box-shadow:0 1px 3px rgb(0 0 0 / 8%)}
h1{margin:0 0 20px;font-size:1.5rem;line-height:1.25;text-align:center}
p{margin:0 0 16px}
.lead{color:var(--muted);text-align:center}
.alert{margin:0 0 20px;padding:12px 14px;border:1px solid var(--error-border);border-radius:8px;background:var(--error-bg);color:var(--error-text)}
.notice{margin:0 0 20px;padding:12px 14px;border:1px solid var(--border);border-radius:8px}
.acting{position:fixed;top:0;left:0;right:0;margin:0;padding:8px 16px;background:var(--card);border-bottom:3px solid var(--focus);text-align:center;font-size:.9375rem;z-index:1}
body:has(.acting){padding-top:88px}
.hint{margin:-10px 0 16px;color:var(--muted);font-size:.875rem}
.note{margin:20px 0 0;color:var(--muted);font-size:.875rem;text-align:center}
.buttons{display:grid;gap:10px}
form{margin:0}
label{display:block;margin:0 0 6px;font-weight:600;font-size:.9375rem}
input,textarea{display:block;width:100%;margin:0 0 16px;padding:10px 12px;font:inherit;color:var(--text);background:var(--card);border:1px solid var(--field-border);border-radius:8px}
textarea{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em;resize:vertical}
input::placeholder{color:var(--muted);opacity:1}
button{display:flex;align-items:center;justify-content:center;gap:10px;width:100%;min-height:44px;padding:10px 16px;font:inherit;font-weight:600;color:var(--text);background:var(--card);border:1px solid var(--field-border);border-radius:8px;cursor:pointer}
button:hover{filter:brightness(.94)}
form button+button{margin-top:10px}
button.primary{color:var(--brand-text);background:var(--brand);border-color:var(--brand)}
button img{width:20px;height:20px;flex:none}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
a{color:var(--link);text-underline-offset:2px}
.links{margin:20px 0 0;text-align:center}
.divider{display:flex;align-items:center;gap:12px;margin:20px 0;color:var(--muted);font-size:.875rem}
.divider::before,.divider::after{content:"";flex:1;border-top:1px solid var(--border)}
.titled h2{margin:0 0 14px;font-size:1.125rem;line-height:1.3}
main.wide{max-width:720px}
main.wide h1{text-align:left}
h2{margin:28px 0 12px;font-size:1.125rem;line-height:1.3}
select{display:block;width:100%;margin:0 0 16px;padding:10px 12px;font:inherit;color:var(--text);background:var(--card);border:1px solid var(--field-border);border-radius:8px}
.rows{list-style:none;margin:0 0 16px;padding:0}
.rows>li{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;padding:12px 0;border-top:1px solid var(--border)}
.rows>li:last-child{border-bottom:1px solid var(--border)}
.rows .what{flex:1 1 220px;min-width:0;overflow-wrap:anywhere}
.rows small{display:block;color:var(--muted)}
.actions{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.actions form{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.actions button,button.small{width:auto;min-height:36px;padding:6px 12px}
form button.small+button.small{margin-top:0}
.choices{display:flex;flex-wrap:wrap;gap:4px 14px;margin:0 0 16px;padding:0;border:0}
.actions .choices{margin:0}
.choices legend{padding:0;margin:0 0 6px;font-weight:600;font-size:.9375rem}
.choices label{display:flex;align-items:center;gap:6px;margin:0;font-weight:400}
.choices input{display:inline-block;width:auto;margin:0}
.current{font-weight:600}
`
