/**
 * Picks the language of a page from the request's `Accept-Language` and fills in its texts.
 *
 * Negotiation is RFC 4647 "lookup": ranges are tried by decreasing `q` (ties keep their order),
 * each first as written and then with subtags cut from the end, so `fr-CA` finds `fr`. A range
 * with `q=0` is refused; `*` and anything unknown fall through to English. The languages on offer
 * are the built-in catalogues plus any language the app's `messages` option names, so an app can
 * add a language; keys it leaves out come from the closest language that has them, then English.
 *
 * The translator reads the core's catalogues (`locales/`) and the texts it is given: the resolved
 * configuration's `messages` (`config/appearance.ts`), which are the built-in capabilities'
 * catalogues with the app's overrides over them, so that this hub names no capability. For each
 * language in turn, those texts come before the core's (their keys are not the core's, so only an
 * app's override can stand in for a core text). Without them (the page of a configuration error)
 * only the core's texts are there, which is all that page uses.
 *
 * The built-in emails use the same texts through `translatorForRequest`.
 *
 * @module
 */
import { coreCatalogue, coreCatalogues, defaultLanguage } from "./locales/index.js"
import type { MessageKey, MessageOverrides, Messages } from "./messages.js"
import type { HeaderReader } from "../http/incoming.js"

export interface Translator {
  /** The BCP 47 tag of the chosen language, for `<html lang>` and `Content-Language`. */
  readonly lang: string
  /** The text for `key`, with `{name}` placeholders replaced by `vars`. */
  t(key: MessageKey, vars?: Readonly<Record<string, string>>): string
  /** Whether `key` names a message (a capability's only with the configuration's texts). */
  has(key: string): key is MessageKey
}

/** A BCP 47 language tag such as `fr` or `pt-BR`, as the `messages` options name languages. */
/** The locale for `Intl`: the page's language, or English if `Intl` does not take its tag. */
export function intlLocale(lang: string): string {
  try {
    return Intl.getCanonicalLocales(lang)[0] ?? "en"
  } catch {
    return "en"
  }
}

export const languageTag = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i

/** Ranges beyond this many are ignored: a header is a short list, not a workload. */
const maxRanges = 20
const rangePattern = /^([a-z]{1,8}(?:-[a-z0-9]{1,8})*|\*)(?:;q=([01](?:\.\d{0,3})?))?$/

/** The language ranges of an `Accept-Language` header, lower case, best first; refused ones left out. */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return []
  const ranges: { tag: string; q: number; index: number }[] = []
  for (const [index, item] of header.split(",").slice(0, maxRanges).entries()) {
    const match = rangePattern.exec(item.replace(/\s+/g, "").toLowerCase())
    if (!match) continue
    const q = match[2] === undefined ? 1 : Number(match[2])
    if (q > 0 && q <= 1) ranges.push({ tag: match[1]!, q, index })
  }
  ranges.sort((a, b) => b.q - a.q || a.index - b.index)
  return ranges.map((r) => r.tag)
}

/** `tag` and its shorter forms: `zh-hant-tw`, `zh-hant`, `zh`. */
function truncations(tag: string): string[] {
  const parts = tag.split("-")
  return parts.map((_, i) => parts.slice(0, parts.length - i).join("-"))
}

/** The offered language (as spelled in `offered`) that best matches `header`, or English. */
export function negotiateLanguage(header: string | null | undefined, offered: readonly string[]): string {
  const byLowerCase = new Map(offered.map((tag) => [tag.toLowerCase(), tag]))
  for (const range of acceptedLanguages(header)) {
    if (range === "*") continue
    for (const candidate of truncations(range)) {
      const found = byLowerCase.get(candidate)
      if (found) return found
    }
  }
  return defaultLanguage
}

/** The languages on offer: built-in ones and those the overrides name. */
export function offeredLanguages(overrides: MessageOverrides | undefined): string[] {
  return [...new Set([...Object.keys(coreCatalogues), ...Object.keys(overrides ?? {})])]
}

/** Where the texts of `lang` come from, first match wins: the language, its shorter forms, English. */
function sources(lang: string, overrides: MessageOverrides | undefined): Partial<Messages>[] {
  const overridesByTag = new Map(Object.entries(overrides ?? {}).map(([tag, messages]) => [tag.toLowerCase(), messages ?? {}]))
  const tags = [...new Set([...truncations(lang.toLowerCase()), defaultLanguage])]
  return tags.flatMap((tag) => [overridesByTag.get(tag) ?? {}, coreCatalogue(tag) ?? {}])
}

/**
 * The translator for `lang` (one of the offered languages), with `overrides`: the resolved
 * configuration's `messages` (the capabilities' texts, the app's overrides over them).
 */
export function translator(lang: string, overrides?: MessageOverrides): Translator {
  const chain = sources(lang, overrides)
  const text = (key: MessageKey): string => {
    for (const messages of chain) {
      const value = Object.hasOwn(messages, key) ? messages[key] : undefined
      if (typeof value === "string") return value
    }
    // Only a capability's key without the configuration's texts: never shown by the pages that have them.
    return key
  }
  return {
    lang,
    // The chain ends with English, which has every key of the texts it was given.
    has: (key): key is MessageKey => chain.some((messages) => Object.hasOwn(messages, key)),
    t(key, vars) {
      const value = text(key)
      return vars ? value.replace(/\{(\w+)\}/g, (match, name: string) => (Object.hasOwn(vars, name) ? vars[name]! : match)) : value
    },
  }
}

/** The translator for a request: its `Accept-Language` against the built-in and overridden languages. */
export function translatorForRequest(request: { headers: HeaderReader }, overrides?: MessageOverrides): Translator {
  const lang = negotiateLanguage(request.headers.get("accept-language"), offeredLanguages(overrides))
  return translator(lang, overrides)
}
