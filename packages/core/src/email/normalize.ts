/**
 * The default address normaliser of email providers.
 *
 * An address typed into the form ends up in a database key, in an SMTP envelope and in a mail
 * library's address parser, and those disagree about exotic syntax: quoted local parts, comments,
 * several addresses in one string (`a@x.com,b@y.com`), a comma or `@` smuggled into the domain.
 * Each disagreement is a way to get a link for one address delivered to another. So the rule is an
 * allowlist, not a parser: one unquoted `local@domain`, nothing a mail library could read as two
 * addresses or a display name, and a plain host name as the domain. Everything else is refused
 * with a message that says what is wrong, before any token exists or any mail is sent.
 *
 * Lower-casing the local part is not what RFC 5321 says, but it is what users expect (`Ada@` and
 * `ada@` are one person almost everywhere) and what keeps one user per mailbox.
 *
 * @module
 */

/** RFC 5321: 64 octets for the local part, 254 for the whole path. */
const maxLocal = 64
const maxTotal = 254

/** RFC 5322 `atext` plus dots, and letters and digits of any script (SMTPUTF8). */
const localPattern = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~.-]+$/u
/** A DNS label of letters (any script), digits and inner hyphens. */
const labelPattern = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u

/** Characters that make a mail library see a display name, a comment, a route or a second address. */
const specials: readonly [RegExp, string][] = [
  [/[\s\p{C}]/u, "a space or control character"],
  [/["]/, "a quote"],
  [/[,;]/, "a comma or semicolon (one address only)"],
  [/[<>()[\]\\:]/, "a character that is not allowed in a plain address (<, >, (, ), [, ], \\ or :)"],
]

/**
 * The folding every address gets before it names a user: Unicode NFKC (look-alike full-width
 * characters become plain ones), trimmed, lower case. Addresses from providers get only this: the
 * provider delivers to them, whatever their syntax.
 */
export function foldEmail(input: string): string {
  return input.normalize("NFKC").trim().toLowerCase()
}

/**
 * Folds `input` ({@link foldEmail}) and checks that it is one plain address. Throws a `TypeError`
 * saying what is wrong.
 */
export function normalizeEmail(input: string): string {
  if (typeof input !== "string") throw new TypeError("The email address is missing.")
  const value = foldEmail(input)
  if (!value) throw new TypeError("The email address is missing.")
  if (value.length > maxTotal) throw new TypeError(`The email address is longer than ${maxTotal} characters.`)
  for (const [pattern, what] of specials) {
    if (pattern.test(value)) throw new TypeError(`The email address contains ${what}.`)
  }
  const parts = value.split("@")
  if (parts.length !== 2) throw new TypeError("The email address must contain exactly one @.")
  const [local, domain] = parts as [string, string]
  if (!local) throw new TypeError("The email address has nothing before the @.")
  if (!domain) throw new TypeError("The email address has no domain after the @.")
  if (local.length > maxLocal) throw new TypeError(`The part before the @ is longer than ${maxLocal} characters.`)
  if (!localPattern.test(local) || local.startsWith(".") || local.endsWith(".") || local.includes("..")) {
    throw new TypeError("The part before the @ is not a plain mailbox name.")
  }
  if (!domain.split(".").every((label) => labelPattern.test(label))) {
    throw new TypeError("The domain after the @ is not a valid host name.")
  }
  return value
}

/** `input` normalised ({@link normalizeEmail}), or null when it is not one plain address. */
export function parseEmail(input: string): string | null {
  try {
    return normalizeEmail(input)
  } catch {
    return null
  }
}
