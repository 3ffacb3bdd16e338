/**
 * The texts of passkeys: the passkey form on the sign-in page, and the sign-in page's error of a
 * passkey that did not verify.
 *
 * Its keys and their English texts are declared here, with the texts in every built-in language;
 * the feature declares them (`feature.ts`), the configuration gathers every feature's
 * (`config/appearance.ts`), and an app overrides single keys through the `messages` option as it
 * does the core's.
 *
 * @module
 */
import type { Catalogues } from "../pages/messages.js"

/** The passkeys' texts, by key (part of `Messages`, through `registry.ts`). */
export interface PasskeyMessages {
  /** Under the passkey form's email field: what leaving it empty or filling it in does. */
  "signin.passkey.hint": string
  /** Status line while the browser asks for the passkey. */
  "signin.passkey.working": string
  /** Status line when the browser's passkey request fails (cancelled, timed out). */
  "signin.passkey.failed": string
  "signin.error.WebAuthnVerificationError": string
}

/** Its texts in every built-in language; a missing language or key is a compile error. */
export const passkeyMessages: Catalogues<PasskeyMessages> = {
  en: {
    "signin.passkey.hint": "Enter your email to create a passkey, or leave it empty to use one you already have.",
    "signin.passkey.working": "Waiting for your passkey…",
    "signin.passkey.failed": "The passkey request was cancelled or timed out. Try again.",
    "signin.error.WebAuthnVerificationError": "Your passkey couldn’t be verified. Please try again.",
  },
  de: {
    "signin.passkey.hint": "Geben Sie Ihre E-Mail-Adresse ein, um einen Passkey zu erstellen, oder lassen Sie das Feld leer, um einen vorhandenen zu verwenden.",
    "signin.passkey.working": "Warten auf Ihren Passkey …",
    "signin.passkey.failed": "Die Passkey-Anfrage wurde abgebrochen oder ist abgelaufen. Bitte versuchen Sie es erneut.",
    "signin.error.WebAuthnVerificationError": "Ihr Passkey konnte nicht überprüft werden. Bitte versuchen Sie es erneut.",
  },
  es: {
    "signin.passkey.hint": "Escribe tu correo electrónico para crear una llave de acceso, o deja el campo vacío para usar una que ya tengas.",
    "signin.passkey.working": "Esperando tu llave de acceso…",
    "signin.passkey.failed": "La solicitud de la llave de acceso se canceló o caducó. Inténtalo de nuevo.",
    "signin.error.WebAuthnVerificationError": "No se ha podido verificar tu llave de acceso. Inténtalo de nuevo.",
  },
  fr: {
    "signin.passkey.hint": "Saisissez votre adresse e-mail pour créer une clé d’accès, ou laissez le champ vide pour utiliser une clé existante.",
    "signin.passkey.working": "En attente de votre clé d’accès…",
    "signin.passkey.failed": "La demande de clé d’accès a été annulée ou a expiré. Veuillez réessayer.",
    "signin.error.WebAuthnVerificationError": "Votre clé d’accès n’a pas pu être vérifiée. Veuillez réessayer.",
  },
  ja: {
    "signin.passkey.hint": "パスキーを作成するにはメールアドレスを入力してください。登録済みのパスキーを使う場合は空欄のままにしてください。",
    "signin.passkey.working": "パスキーを待っています…",
    "signin.passkey.failed": "パスキーのリクエストがキャンセルされたか、タイムアウトしました。もう一度お試しください。",
    "signin.error.WebAuthnVerificationError": "パスキーを確認できませんでした。もう一度お試しください。",
  },
}
