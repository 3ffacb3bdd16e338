/**
 * The `accountPage` option: the built-in account page (`GET <basePath>/account`), on by default
 * with an adapter, and which of its sections it shows.
 *
 * @module
 */

/** The account page's sections, in the order the page shows them. */
export const sectionNames = ["profile", "email", "password", "passkeys", "twoFactor", "linkedAccounts", "sessions", "plugins", "delete"] as const

/**
 * A section of the account page: the profile (name, image, the app's user fields that users may
 * set), the email address, the password, passkeys, two-factor sign-in, linked accounts, sessions,
 * the plugins' sections (an organizations list) and deleting the account.
 */
export type SectionName = (typeof sectionNames)[number]

/** The account page's options. */
export interface AccountPageOptions {
  /**
   * Sections to leave out (`false`) or keep (`true`, the default). A section also stays away
   * when the configuration cannot serve it (no password provider, no passkey provider, no way to
   * send email, two-factor sign-in off).
   */
  sections?: Partial<Record<SectionName, boolean>>
}

/** The configuration's option for the account page (part of `AuthConfig`). */
export interface AccountPageConfig {
  /**
   * The built-in account page at `<basePath>/account`, where a signed-in user manages their
   * profile, address, password, passkeys, second factor, linked accounts and sessions, and
   * deletes their account. On whenever there is an adapter; `false` turns it off (its endpoints
   * answer `404`). `pages.account` sends visitors to the app's own page instead; the server
   * functions (`updateUserFields`, `requestEmailChange`, `listSessions`, …) stay for such pages.
   */
  accountPage?: AccountPageOptions | false
}

/** The resolved option: which sections are on. */
export interface ResolvedAccountPage {
  readonly sections: Readonly<Record<SectionName, boolean>>
}

/** The option checked (a `TypeError` names what is wrong); undefined when the page is off. */
export function resolveAccountPage(option: unknown, hasAdapter: boolean): ResolvedAccountPage | undefined {
  if (option === false || !hasAdapter) return undefined
  if (option !== undefined && (typeof option !== "object" || option === null)) throw new TypeError("`accountPage` must be `false` or an object.")
  const given = (option as AccountPageOptions | undefined)?.sections
  if (given !== undefined && (typeof given !== "object" || given === null)) throw new TypeError("`accountPage.sections` must be an object of section names and booleans.")
  const sections = Object.fromEntries(sectionNames.map((name) => [name, true])) as Record<SectionName, boolean>
  for (const [name, on] of Object.entries(given ?? {})) {
    if (!(sectionNames as readonly string[]).includes(name)) throw new TypeError(`\`accountPage.sections.${name}\` is not a section of the account page (${sectionNames.join(", ")}).`)
    if (on === undefined) continue
    if (typeof on !== "boolean") throw new TypeError(`\`accountPage.sections.${name}\` must be a boolean.`)
    sections[name as SectionName] = on
  }
  return { sections: Object.freeze(sections) }
}
