/**
 * The captcha's texts: the message when a guarded form's captcha was missing, wrong, expired or
 * used, the one when it could not be checked, on the sign-in page and on the password pages (each
 * shows its `?error=` from its own keys), and the line shown where JavaScript is off.
 *
 * @module
 */
import type { Catalogues } from "../pages/messages.js"

/** The captcha's texts, by key (part of `Messages`, through `registry.ts`). */
export interface CaptchaMessages {
  /** The form's captcha was missing, invalid, expired or already used. */
  "signin.error.CaptchaFailed": string
  /** The captcha service could not be asked: try again. */
  "signin.error.CaptchaUnavailable": string
  /** The same, on the sign-up and forgotten-password pages. */
  "password.error.CaptchaFailed": string
  "password.error.CaptchaUnavailable": string
  /** Under a guarded form, for a browser without JavaScript (the widget needs it). */
  "captcha.noscript": string
}

const texts = {
  en: {
    failed: "Complete the check that you’re a person, then send the form again. If you did, it may have expired.",
    unavailable: "We couldn’t check that you’re a person just now. Please try again in a moment.",
    noscript: "This form asks your browser to show that you’re a person, which needs JavaScript. Turn JavaScript on, then reload the page.",
  },
  de: {
    failed: "Bestätigen Sie, dass Sie ein Mensch sind, und senden Sie das Formular erneut. Falls Sie das getan haben, ist die Bestätigung vielleicht abgelaufen.",
    unavailable: "Wir konnten gerade nicht prüfen, dass Sie ein Mensch sind. Bitte versuchen Sie es gleich noch einmal.",
    noscript: "Dieses Formular lässt Ihren Browser zeigen, dass Sie ein Mensch sind, und braucht dafür JavaScript. Schalten Sie JavaScript ein und laden Sie die Seite neu.",
  },
  es: {
    failed: "Completa la comprobación de que eres una persona y vuelve a enviar el formulario. Si ya lo hiciste, puede que haya caducado.",
    unavailable: "No hemos podido comprobar ahora que eres una persona. Inténtalo de nuevo en un momento.",
    noscript: "Este formulario pide a tu navegador que demuestre que eres una persona, y para eso necesita JavaScript. Activa JavaScript y vuelve a cargar la página.",
  },
  fr: {
    failed: "Effectuez la vérification indiquant que vous êtes une personne, puis renvoyez le formulaire. Si vous l’avez fait, elle a peut-être expiré.",
    unavailable: "Nous n’avons pas pu vérifier pour l’instant que vous êtes une personne. Réessayez dans un moment.",
    noscript: "Ce formulaire demande à votre navigateur de montrer que vous êtes une personne, ce qui nécessite JavaScript. Activez JavaScript, puis rechargez la page.",
  },
  ja: {
    failed: "人間であることの確認を完了してから、もう一度送信してください。完了済みの場合は、確認の有効期限が切れた可能性があります。",
    unavailable: "現在、人間であることを確認できませんでした。しばらくしてからもう一度お試しください。",
    noscript: "このフォームでは、人間であることをブラウザーで確認するために JavaScript が必要です。JavaScript を有効にして、ページを再読み込みしてください。",
  },
} as const

function catalogue(lang: keyof typeof texts): CaptchaMessages {
  const { failed, unavailable, noscript } = texts[lang]
  return {
    "signin.error.CaptchaFailed": failed,
    "signin.error.CaptchaUnavailable": unavailable,
    "password.error.CaptchaFailed": failed,
    "password.error.CaptchaUnavailable": unavailable,
    "captcha.noscript": noscript,
  }
}

/** Its texts in every built-in language; a missing language or key is a compile error. */
export const captchaMessages: Catalogues<CaptchaMessages> = {
  en: catalogue("en"),
  de: catalogue("de"),
  es: catalogue("es"),
  fr: catalogue("fr"),
  ja: catalogue("ja"),
}
