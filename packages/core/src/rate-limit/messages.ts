/**
 * The texts of the page a browser gets for a request over a rate limit (`429`).
 *
 * @module
 */
import type { Catalogues } from "../pages/messages.js"

/** The rate limit page's texts, by key (part of `Messages`, through `registry.ts`). */
export interface RateLimitMessages {
  "rateLimit.heading": string
  /** `{seconds}`: the `Retry-After`. */
  "rateLimit.text": string
  "rateLimit.retry": string
}

/** Its texts in every built-in language; a missing language or key is a compile error. */
export const rateLimitMessages: Catalogues<RateLimitMessages> = {
  en: {
    "rateLimit.heading": "Too many requests",
    "rateLimit.text": "This browser or network sent more requests than we answer in a short time. Wait {seconds} seconds, then try again.",
    "rateLimit.retry": "Try again",
  },
  de: {
    "rateLimit.heading": "Zu viele Anfragen",
    "rateLimit.text": "Von diesem Browser oder Netzwerk kamen in kurzer Zeit mehr Anfragen, als wir beantworten. Warten Sie {seconds} Sekunden und versuchen Sie es dann erneut.",
    "rateLimit.retry": "Erneut versuchen",
  },
  es: {
    "rateLimit.heading": "Demasiadas solicitudes",
    "rateLimit.text": "Este navegador o esta red ha enviado más solicitudes de las que respondemos en poco tiempo. Espera {seconds} segundos y vuelve a intentarlo.",
    "rateLimit.retry": "Volver a intentarlo",
  },
  fr: {
    "rateLimit.heading": "Trop de requêtes",
    "rateLimit.text": "Ce navigateur ou ce réseau a envoyé plus de requêtes que nous n’en traitons en peu de temps. Attendez {seconds} secondes, puis réessayez.",
    "rateLimit.retry": "Réessayer",
  },
  ja: {
    "rateLimit.heading": "リクエストが多すぎます",
    "rateLimit.text": "このブラウザーまたはネットワークから短時間に多くのリクエストが送信されました。{seconds} 秒待ってから、もう一度お試しください。",
    "rateLimit.retry": "もう一度試す",
  },
}
