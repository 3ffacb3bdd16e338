/**
 * A tiny HTML template: every interpolated value is escaped unless it is a `SafeHtml` made by
 * `html` itself (or, for trusted constant markup, `unsafeHtml`). Pages are built only with it, so
 * an error code, email address, provider name or callback URL can never break out of its context.
 *
 * @module
 */

/**
 * The brand of markup made by `html`: a registered symbol, so that markup made by another copy of
 * the core (a plugin's bundle, an app's) is recognised and never escaped a second time.
 */
const brand = Symbol.for("sesame.safe-html")

/** Markup that `html` made (its interpolations escaped) or `unsafeHtml` marked as trusted. */
export class SafeHtml {
  readonly [brand] = true
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

/** Whether `value` is markup made by `html` (in this copy of the core or another). */
export function isSafeHtml(value: unknown): value is SafeHtml {
  return value instanceof SafeHtml || (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true && typeof (value as SafeHtml).value === "string")
}

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" }

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => escapes[c]!)
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[]

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return ""
  if (isSafeHtml(value)) return value.value
  if (Array.isArray(value)) return value.map(render).join("")
  return escapeHtml(String(value))
}

/**
 * Tagged template that escapes interpolations: text, numbers, lists of them, and markup it made
 * itself (kept as is). `null`, `undefined` and `false` add nothing, for conditional parts.
 *
 * @example
 * ```ts
 * const row = html`<li>${member.name} <small>${member.email}</small></li>`
 * ```
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!
  return new SafeHtml(out)
}

/** Marks constant, trusted markup (never user input) as safe. */
export function unsafeHtml(markup: string): SafeHtml {
  return new SafeHtml(markup)
}
