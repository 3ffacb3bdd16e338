/**
 * The texts of native apps' sign-in: the page that hands a signed-in browser's session to an app.
 *
 * Its keys and their English texts are declared here, with the texts in every built-in language;
 * the feature declares them (`feature.ts`), the configuration gathers every feature's
 * (`config/appearance.ts`), and an app overrides single keys through the `messages` option as it
 * does the core's.
 *
 * @module
 */
import type { Catalogues } from "../pages/messages.js"

/** The native-app page's texts, by key (part of `Messages`, through `registry.ts`). */
export interface NativeAppsMessages {
  "native.heading": string
  /** `{account}`: the signed-in user's email address or name. */
  "native.confirm": string
  /** `{target}`: where the app receives the sign-in (its redirect URI). */
  "native.target": string
  "native.button": string
  "native.cancel": string
}

/** Its texts in every built-in language; a missing language or key is a compile error. */
export const nativeAppsMessages: Catalogues<NativeAppsMessages> = {
  en: {
    "native.heading": "Continue to the app",
    "native.confirm": "You are signed in as {account}. Sign the app in with this account?",
    "native.target": "The app receives the sign-in at {target}. Continue only if you just opened this page from that app.",
    "native.button": "Continue",
    "native.cancel": "Cancel",
  },
  de: {
    "native.heading": "Weiter zur App",
    "native.confirm": "Sie sind als {account} angemeldet. Die App mit diesem Konto anmelden?",
    "native.target": "Die App erhält die Anmeldung unter {target}. Fahren Sie nur fort, wenn Sie diese Seite gerade aus dieser App geöffnet haben.",
    "native.button": "Weiter",
    "native.cancel": "Abbrechen",
  },
  es: {
    "native.heading": "Continuar a la aplicación",
    "native.confirm": "Has iniciado sesión como {account}. ¿Iniciar sesión en la aplicación con esta cuenta?",
    "native.target": "La aplicación recibe el inicio de sesión en {target}. Continúa solo si acabas de abrir esta página desde esa aplicación.",
    "native.button": "Continuar",
    "native.cancel": "Cancelar",
  },
  fr: {
    "native.heading": "Continuer vers l’application",
    "native.confirm": "Vous êtes connecté en tant que {account}. Connecter l’application avec ce compte\u00a0?",
    "native.target": "L’application reçoit la connexion à {target}. Ne continuez que si vous venez d’ouvrir cette page depuis cette application.",
    "native.button": "Continuer",
    "native.cancel": "Annuler",
  },
  ja: {
    "native.heading": "アプリに進む",
    "native.confirm": "{account} としてログインしています。このアカウントでアプリにログインしますか？",
    "native.target": "アプリは {target} でログインを受け取ります。このアプリからこのページを開いた場合にのみ続行してください。",
    "native.button": "続行",
    "native.cancel": "キャンセル",
  },
}
