/** The languages the home page offers for the `language` user field, by tag. */
export const languages: Readonly<Record<string, string>> = {
  en: "English",
  de: "Deutsch",
  es: "Español",
  fr: "Français",
  ja: "日本語",
}
