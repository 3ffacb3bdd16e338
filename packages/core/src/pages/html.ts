/**
 * A tiny HTML template: every interpolated value is escaped unless it is a `SafeHtml` made by
 * `html` itself (or, for trusted constant markup, `unsafeHtml`). Pages are built only with it, so
 * an error code, email address, provider name or callback URL can never break out of its context.
 *
 * @module
 */

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" }

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => escapes[c]!)
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[]

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return ""
  if (value instanceof SafeHtml) return value.value
  if (Array.isArray(value)) return value.map(render).join("")
  return escapeHtml(String(value))
}

/** Tagged template that escapes interpolations. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!
  return new SafeHtml(out)
}

/** Marks constant, trusted markup (never user input) as safe. */
export function unsafeHtml(markup: string): SafeHtml {
  return new SafeHtml(markup)
}
