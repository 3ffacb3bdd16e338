/**
 * The core's catalogues, by language tag. Every one is complete (the `CoreMessages` type makes a
 * missing key a compile error); add a language by adding a file here, and its texts to every
 * capability's catalogues (`Catalogues` in `../messages.ts` makes a missing one a compile error).
 * The capabilities' texts are gathered with the configuration (`config/appearance.ts`).
 *
 * @module
 */
import type { BuiltInLanguage, Catalogues, CoreMessages } from "../messages.js"
import { de } from "./de.js"
import { en } from "./en.js"
import { es } from "./es.js"
import { fr } from "./fr.js"
import { ja } from "./ja.js"

/** The language used when nothing the visitor accepts is available; it is also the fallback for a missing key. */
export const defaultLanguage = "en" satisfies BuiltInLanguage

export const coreCatalogues: Catalogues<CoreMessages> = { en, fr, de, es, ja }

/** The core's catalogue of `tag` (lower case), if it is a built-in language. */
export function coreCatalogue(tag: string): CoreMessages | undefined {
  return Object.hasOwn(coreCatalogues, tag) ? coreCatalogues[tag as BuiltInLanguage] : undefined
}
