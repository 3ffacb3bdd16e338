/**
 * How the built-in pages look and speak: the `theme` and `messages` options, checked when the configuration is
 * resolved. A value the pages could not use safely (a colour that is not a plain CSS colour, a logo
 * on another host or with a `javascript:` URL, a message that is not a string, a key that does not
 * exist) is a configuration error naming the option, rather than something silently dropped.
 *
 * @module
 */
import { InvalidProvider } from "../errors.js"
import { defaultMessages } from "../pages/locales/index.js"
import type { MessageOverrides } from "../pages/messages.js"
import { isCssColour, isSafeImageSource } from "../pages/theme.js"
import type { AuthConfig, Theme } from "../types.js"
import { defaultTheme } from "./defaults.js"

const colorSchemes: ReadonlySet<unknown> = new Set(["auto", "light", "dark"])

/** The theme with its defaults. Throws a configuration error for a value the pages cannot use. */
export function resolveTheme(input: AuthConfig["theme"]): Readonly<Required<Theme>> {
  if (input !== undefined && (typeof input !== "object" || input === null)) {
    throw new InvalidProvider("`theme` must be an object such as `{ colorScheme: \"auto\", brandColor: \"#3b5bdb\" }`.")
  }
  const theme: Required<Theme> = {
    colorScheme: input?.colorScheme ?? defaultTheme.colorScheme,
    logo: input?.logo ?? defaultTheme.logo,
    brandColor: input?.brandColor ?? defaultTheme.brandColor,
    buttonText: input?.buttonText ?? defaultTheme.buttonText,
  }
  if (!colorSchemes.has(theme.colorScheme)) {
    throw new InvalidProvider(`\`theme.colorScheme\` must be "auto", "light" or "dark"; got ${JSON.stringify(theme.colorScheme)}.`)
  }
  for (const option of ["brandColor", "buttonText"] as const) {
    const value = theme[option]
    if (value !== "" && !isCssColour(value)) {
      throw new InvalidProvider(
        `\`theme.${option}\` must be a CSS colour: a hex colour ("#3b5bdb"), a colour name, or rgb()/hsl()/oklch() with numbers; got ${JSON.stringify(value)}.`,
      )
    }
  }
  if (theme.logo !== "" && !isSafeImageSource(theme.logo)) {
    throw new InvalidProvider(
      `\`theme.logo\` must be a path on this site ("/logo.svg") or a data:image URL, so that the pages never load anything from another host; got ${JSON.stringify(theme.logo)}.`,
    )
  }
  return Object.freeze(theme)
}

/** A BCP 47 language tag such as `fr` or `pt-BR`. */
const languageTag = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i

/** The `messages` overrides, checked: language tags as keys, known message keys, string texts. */
export function resolveMessages(input: AuthConfig["messages"]): MessageOverrides | undefined {
  if (input === undefined) return undefined
  if (typeof input !== "object" || input === null) {
    throw new InvalidProvider('`messages` must be an object by language, such as `{ fr: { "signin.heading": "Connexion" } }`.')
  }
  const resolved: MessageOverrides = {}
  for (const [lang, messages] of Object.entries(input)) {
    if (!languageTag.test(lang)) throw new InvalidProvider(`\`messages\` has a key ${JSON.stringify(lang)} that is not a language tag such as "fr" or "pt-BR".`)
    if (typeof messages !== "object" || messages === null) throw new InvalidProvider(`\`messages.${lang}\` must be an object of texts by key.`)
    for (const [key, text] of Object.entries(messages)) {
      if (!Object.hasOwn(defaultMessages, key)) {
        throw new InvalidProvider(`\`messages.${lang}\` has an unknown key ${JSON.stringify(key)}; the keys are those of the \`Messages\` type.`)
      }
      if (typeof text !== "string") throw new InvalidProvider(`\`messages.${lang}["${key}"]\` must be a string.`)
    }
    resolved[lang] = Object.freeze({ ...messages })
  }
  return Object.freeze(resolved)
}
