/**
 * How the built-in pages look and speak: the `theme` and `messages` options, checked when the configuration is
 * resolved. A value the pages could not use safely (a colour that is not a plain CSS colour, a logo
 * on another host or with a `javascript:` URL, a message that is not a string, a key that does not
 * exist) is a configuration error naming the option, rather than something silently dropped.
 *
 * The resolved `messages` are also where the built-in capabilities' texts reach the pages: each
 * feature's catalogues (`Feature.messages`, read from `registry.ts`), with the app's overrides over
 * them, so that `pages/` names no capability and needs no import of the registration list.
 *
 * @module
 */
import { InvalidProvider } from "../errors.js"
import { coreCatalogues } from "../pages/locales/index.js"
import type { BuiltInLanguage, MessageOverrides, Messages } from "../pages/messages.js"
import { isCssColour, isSafeImageSource } from "../pages/theme.js"
import { languageTag } from "../pages/i18n.js"
import type { AuthConfig, Theme } from "../types.js"
import { builtInFeatures } from "../registry.js"
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

let capabilityTexts: Readonly<Record<BuiltInLanguage, Readonly<Partial<Messages>>>> | undefined

/**
 * The built-in capabilities' texts by language: every feature's catalogues, gathered once (when
 * first asked, not as the module loads: the registration list is read only once it is made).
 */
function capabilityMessages(): Readonly<Record<BuiltInLanguage, Readonly<Partial<Messages>>>> {
  if (capabilityTexts) return capabilityTexts
  const languages = Object.keys(coreCatalogues) as BuiltInLanguage[]
  const gathered = Object.fromEntries(languages.map((lang) => [lang, {}])) as Record<BuiltInLanguage, Partial<Messages>>
  for (const feature of builtInFeatures()) {
    for (const lang of languages) Object.assign(gathered[lang], feature.messages?.[lang])
  }
  for (const lang of languages) Object.freeze(gathered[lang])
  return (capabilityTexts = Object.freeze(gathered))
}

/** Every built-in text, by language: the core's catalogues and the capabilities'. Each has every key. */
export function builtInCatalogues(): ReadonlyMap<string, Messages> {
  const capabilities = capabilityMessages()
  return new Map(Object.entries(coreCatalogues).map(([lang, core]) => [lang, { ...core, ...capabilities[lang as BuiltInLanguage] } as Messages]))
}

/**
 * The texts the pages read besides the core's catalogues: the built-in capabilities' catalogues
 * and the plugins' (`plugins` from `modules/resolve.ts`, by lower-case language tag), with the
 * `messages` overrides over them (a language's overrides join the texts of that language, whatever
 * the case of its tag). The overrides are checked: language tags as keys, known message keys (the
 * built-in ones and the plugins'), string texts.
 */
export function resolveMessages(input: AuthConfig["messages"], plugins: Readonly<Record<string, Readonly<Record<string, string>>>> = {}): MessageOverrides {
  const resolved: MessageOverrides = { ...capabilityMessages() }
  for (const [lang, texts] of Object.entries(plugins)) join(resolved, lang, texts)
  if (input === undefined) return Object.freeze(resolved)
  if (typeof input !== "object" || input === null) {
    throw new InvalidProvider('`messages` must be an object by language, such as `{ fr: { "signin.heading": "Connexion" } }`.')
  }
  const english = { ...builtInCatalogues().get("en")!, ...plugins.en }
  for (const [lang, messages] of Object.entries(input)) {
    if (!languageTag.test(lang)) throw new InvalidProvider(`\`messages\` has a key ${JSON.stringify(lang)} that is not a language tag such as "fr" or "pt-BR".`)
    if (typeof messages !== "object" || messages === null) throw new InvalidProvider(`\`messages.${lang}\` must be an object of texts by key.`)
    for (const [key, text] of Object.entries(messages)) {
      if (!Object.hasOwn(english, key)) {
        throw new InvalidProvider(`\`messages.${lang}\` has an unknown key ${JSON.stringify(key)}; the keys are those of the \`Messages\` type and the plugins' texts.`)
      }
      if (typeof text !== "string") throw new InvalidProvider(`\`messages.${lang}["${key}"]\` must be a string.`)
    }
    join(resolved, lang, messages)
  }
  return Object.freeze(resolved)
}

/** Adds `texts` over those of `lang` in `resolved`, under one spelling of the tag (the one given last). */
function join(resolved: MessageOverrides, lang: string, texts: Readonly<Record<string, string | undefined>>): void {
  const present = Object.keys(resolved).find((tag) => tag.toLowerCase() === lang.toLowerCase())
  const under = present === undefined ? {} : resolved[present]
  if (present !== undefined) delete resolved[present]
  resolved[lang] = Object.freeze({ ...under, ...texts })
}
