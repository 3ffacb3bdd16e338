/**
 * The built-in catalogues, by language tag. Every one is complete (the `Messages` type makes a
 * missing key a compile error); add a language by adding a file here.
 *
 * @module
 */
import type { Messages } from "../messages.js"
import { de } from "./de.js"
import { en } from "./en.js"
import { es } from "./es.js"
import { fr } from "./fr.js"
import { ja } from "./ja.js"

/** The language used when nothing the visitor accepts is available; it is also the fallback for a missing key. */
export const defaultLanguage = "en"
export const defaultMessages: Messages = en

export const builtInCatalogues: ReadonlyMap<string, Messages> = new Map([
  ["en", en],
  ["fr", fr],
  ["de", de],
  ["es", es],
  ["ja", ja],
])
