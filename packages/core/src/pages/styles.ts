/**
 * The stylesheet of the built-in pages. Colours are CSS variables so that the theme (and the
 * visitor's `prefers-color-scheme` under `auto`) only swaps values.
 *
 * @module
 */

export const css = `
:root{--brand:#3b5bdb;--brand-text:#fff;--bg:#f5f6f8;--card:#fff;--text:#1b1d21;--muted:#5b616e;--border:#d5d8de;--error-bg:#fdecec;--error-text:#8a1c1c;--radius:10px;color-scheme:light}
.dark{--bg:#14161a;--card:#1e2127;--text:#eceef2;--muted:#a6adbb;--border:#3a3f48;--error-bg:#3b1d1d;--error-text:#ffb4b4;color-scheme:dark}
@media (prefers-color-scheme:dark){.auto{--bg:#14161a;--card:#1e2127;--text:#eceef2;--muted:#a6adbb;--border:#3a3f48;--error-bg:#3b1d1d;--error-text:#ffb4b4;color-scheme:dark}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text)}
main{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:24px}
.logo{max-width:150px;max-height:70px;margin-bottom:24px}
.card{width:100%;max-width:380px;background:var(--card);border:1px solid var(--border);border-radius:var(--radius);padding:28px 24px}
h1{font-size:1.4rem;margin:0 0 16px;text-align:center}
p{margin:0 0 16px;color:var(--muted);text-align:center}
form{margin:0}
.provider+.provider{margin-top:12px}
.divider{display:flex;align-items:center;gap:12px;color:var(--muted);margin:20px 0;font-size:.9rem}
.divider::before,.divider::after{content:"";flex:1;border-top:1px solid var(--border)}
label{display:block;font-weight:600;font-size:.9rem;margin:0 0 6px}
input{display:block;width:100%;padding:10px 12px;margin:0 0 14px;font:inherit;color:var(--text);background:var(--card);border:1px solid var(--border);border-radius:6px}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--brand);outline-offset:2px}
button{display:flex;width:100%;align-items:center;justify-content:center;gap:10px;padding:10px 14px;font:inherit;font-weight:600;border-radius:6px;border:1px solid var(--border);background:var(--card);color:var(--text);cursor:pointer}
button.primary{background:var(--brand);border-color:var(--brand);color:var(--brand-text)}
button img{width:22px;height:22px}
.error{background:var(--error-bg);color:var(--error-text);border-radius:6px;padding:10px 12px;margin:0 0 16px;text-align:center}
a{color:var(--brand)}
.links{text-align:center;margin-top:8px}
`
