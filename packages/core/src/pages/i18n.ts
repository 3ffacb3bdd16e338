/**
 * Picks the messages for a request and fills placeholders.
 *
 * @module
 */
import { en, type MessageKey, type Messages } from "./messages.js"

export interface Translator {
  /** The BCP 47 language of the chosen messages. */
  lang: string
  t(key: MessageKey, vars?: Record<string, string>): string
  /** Whether `key` names a message. */
  has(key: string): key is MessageKey
}

/** The messages for `lang`, with the configuration's overrides for that language merged in. */
export function translator(overrides: Partial<Record<string, Partial<Messages>>> | undefined): Translator {
  const messages: Messages = { ...en, ...overrides?.en }
  return {
    lang: "en",
    has: (key): key is MessageKey => Object.hasOwn(en, key),
    t(key, vars) {
      const text = messages[key] ?? en[key]
      return vars ? text.replace(/\{(\w+)\}/g, (match, name: string) => vars[name] ?? match) : text
    },
  }
}
