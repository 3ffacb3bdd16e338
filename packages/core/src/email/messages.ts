/**
 * The texts of email sign-in: the "check your email" page (`verify-request-page.ts`, whose heading
 * is the core's `verify.heading`, which another capability's pages share), the one-time code's
 * form, and the emails with a sign-in link or a code. The page the link opens is the core's
 * (`pages/confirm-email.ts`, the `confirm.*` texts).
 *
 * Its keys and their English texts are declared here, with the texts in every built-in language;
 * the feature declares them (`feature.ts`), the configuration gathers every feature's
 * (`config/appearance.ts`), and an app overrides single keys through the `messages` option as it
 * does the core's.
 *
 * @module
 */
import type { Catalogues } from "../pages/messages.js"

/** The email sign-in's texts, by key (part of `Messages`, through `registry.ts`). */
export interface EmailMessages {
  "verify.body": string
  /** Link to the site; `{host}` is its host name. */
  "verify.host": string
  /** The verify-request page when a one-time code was emailed: only the code, or the code beside the link. */
  "verify.code.body": string
  "verify.code.bodyWithLink": string
  /** The code field's label, and the form's button. */
  "verify.code.label": string
  "verify.code.button": string
  /** Link back to the sign-in page, to ask for another code. */
  "verify.code.again": string
  /** The typed code is not the one sent. */
  "verify.code.error.InvalidCode": string
  /** The code expired or had too many wrong tries. */
  "verify.code.error.TooManyAttempts": string
  "verify.code.error.CodeExpired": string
  /** Any other `?error=` value (never shown as received). */
  "verify.code.error.Default": string
  /** The email with a one-time code; `{host}` is the site's host name. */
  "codeEmail.subject": string
  /** Above the code. */
  "codeEmail.lead": string
  /** Above the link, when the email has one beside the code. */
  "codeEmail.link": string
  /** The last line; `{minutes}` is how long the code works. */
  "codeEmail.notice": string
  "codeEmail.noticeWithLink": string
  /** Subject and heading of the sign-in email; `{host}` is the site's host name. */
  "email.subject": string
  /** The email's button. */
  "email.button": string
  /** Before the link in the plain-text part. */
  "email.open": string
  /** Before the link written out under the button in the HTML part. */
  "email.copy": string
  /** The email's last line: single use, limited time, ignore if unexpected. */
  "email.notice": string
}

/** Its texts in every built-in language; a missing language or key is a compile error. */
export const emailMessages: Catalogues<EmailMessages> = {
  en: {
    "verify.body": "We’ve emailed you a link to sign in. Open it to continue; you can close this page.",
    "verify.host": "Back to {host}",
    "verify.code.body": "We’ve emailed you a six-digit code. Enter it here to sign in.",
    "verify.code.bodyWithLink": "We’ve emailed you a link and a six-digit code. Open the link, or enter the code here.",
    "verify.code.label": "Sign-in code",
    "verify.code.button": "Sign in",
    "verify.code.again": "Ask for a new code",
    "verify.code.error.InvalidCode": "That code isn’t right. Check the email and try again.",
    "verify.code.error.TooManyAttempts": "Too many wrong codes for this address. Wait a few minutes, then try again.",
    "verify.code.error.CodeExpired": "This code is no longer valid: it expired or was tried too many times. Ask for a new one.",
    "verify.code.error.Default": "Something went wrong. Try again, or ask for a new code.",
    "codeEmail.subject": "Your sign-in code for {host}",
    "codeEmail.lead": "Enter this code in the browser where you asked to sign in:",
    "codeEmail.link": "Or open this link to sign in:",
    "codeEmail.notice": "The code works once, for {minutes} minutes. If you didn’t ask to sign in, you can ignore this email.",
    "codeEmail.noticeWithLink":
      "The code works once, for {minutes} minutes; the link once, for a limited time. If you didn’t ask to sign in, you can ignore this email.",
    "email.subject": "Sign in to {host}",
    "email.button": "Sign in",
    "email.open": "Open this link to sign in:",
    "email.copy": "If the button doesn’t work, copy this link into your browser:",
    "email.notice": "The link works once, for a limited time. If you didn’t ask to sign in, you can ignore this email.",
  },
  de: {
    "verify.body": "Wir haben Ihnen einen Anmeldelink per E-Mail geschickt. Öffnen Sie ihn, um fortzufahren; diese Seite können Sie schließen.",
    "verify.host": "Zurück zu {host}",
    "verify.code.body": "Wir haben Ihnen einen sechsstelligen Code per E-Mail geschickt. Geben Sie ihn hier ein, um sich anzumelden.",
    "verify.code.bodyWithLink":
      "Wir haben Ihnen einen Link und einen sechsstelligen Code per E-Mail geschickt. Öffnen Sie den Link oder geben Sie den Code hier ein.",
    "verify.code.label": "Anmeldecode",
    "verify.code.button": "Anmelden",
    "verify.code.again": "Neuen Code anfordern",
    "verify.code.error.InvalidCode": "Dieser Code stimmt nicht. Prüfen Sie die E-Mail und versuchen Sie es erneut.",
    "verify.code.error.TooManyAttempts": "Zu viele falsche Codes für diese Adresse. Warten Sie ein paar Minuten und versuchen Sie es dann erneut.",
    "verify.code.error.CodeExpired":
      "Dieser Code ist nicht mehr gültig: Er ist abgelaufen oder wurde zu oft versucht. Fordern Sie einen neuen an.",
    "verify.code.error.Default": "Etwas ist schiefgelaufen. Versuchen Sie es erneut oder fordern Sie einen neuen Code an.",
    "codeEmail.subject": "Ihr Anmeldecode für {host}",
    "codeEmail.lead": "Geben Sie diesen Code in dem Browser ein, in dem Sie die Anmeldung angefordert haben:",
    "codeEmail.link": "Oder öffnen Sie diesen Link, um sich anzumelden:",
    "codeEmail.notice":
      "Der Code funktioniert einmal, {minutes} Minuten lang. Wenn Sie keine Anmeldung angefordert haben, können Sie diese E-Mail ignorieren.",
    "codeEmail.noticeWithLink":
      "Der Code funktioniert einmal, {minutes} Minuten lang, der Link einmal und nur für begrenzte Zeit. Wenn Sie keine Anmeldung angefordert haben, können Sie diese E-Mail ignorieren.",
    "email.subject": "Anmeldung bei {host}",
    "email.button": "Anmelden",
    "email.open": "Öffnen Sie diesen Link, um sich anzumelden:",
    "email.copy": "Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:",
    "email.notice": "Der Link funktioniert einmal und nur für begrenzte Zeit. Wenn Sie keine Anmeldung angefordert haben, können Sie diese E-Mail ignorieren.",
  },
  es: {
    "verify.body": "Te hemos enviado un enlace para iniciar sesión. Ábrelo para continuar; puedes cerrar esta página.",
    "verify.host": "Volver a {host}",
    "verify.code.body": "Te hemos enviado un código de seis dígitos. Introdúcelo aquí para iniciar sesión.",
    "verify.code.bodyWithLink": "Te hemos enviado un enlace y un código de seis dígitos. Abre el enlace o introduce el código aquí.",
    "verify.code.label": "Código de inicio de sesión",
    "verify.code.button": "Iniciar sesión",
    "verify.code.again": "Pedir un código nuevo",
    "verify.code.error.InvalidCode": "Ese código no es correcto. Revisa el correo y vuelve a intentarlo.",
    "verify.code.error.TooManyAttempts": "Demasiados códigos incorrectos para esta dirección. Espera unos minutos y vuelve a intentarlo.",
    "verify.code.error.CodeExpired": "Este código ya no es válido: ha caducado o se ha intentado demasiadas veces. Pide uno nuevo.",
    "verify.code.error.Default": "Algo ha fallado. Vuelve a intentarlo o pide un código nuevo.",
    "codeEmail.subject": "Tu código para iniciar sesión en {host}",
    "codeEmail.lead": "Introduce este código en el navegador donde pediste iniciar sesión:",
    "codeEmail.link": "O abre este enlace para iniciar sesión:",
    "codeEmail.notice":
      "El código funciona una sola vez, durante {minutes} minutos. Si no has pedido iniciar sesión, puedes ignorar este correo.",
    "codeEmail.noticeWithLink":
      "El código funciona una sola vez, durante {minutes} minutos; el enlace, una sola vez y durante un tiempo limitado. Si no has pedido iniciar sesión, puedes ignorar este correo.",
    "email.subject": "Inicia sesión en {host}",
    "email.button": "Iniciar sesión",
    "email.open": "Abre este enlace para iniciar sesión:",
    "email.copy": "Si el botón no funciona, copia este enlace en tu navegador:",
    "email.notice": "El enlace funciona una sola vez y durante un tiempo limitado. Si no has pedido iniciar sesión, puedes ignorar este correo.",
  },
  fr: {
    "verify.body": "Nous vous avons envoyé un lien de connexion par e-mail. Ouvrez-le pour continuer\u00a0; vous pouvez fermer cette page.",
    "verify.host": "Retour à {host}",
    "verify.code.body": "Nous vous avons envoyé un code à six chiffres par e-mail. Saisissez-le ici pour vous connecter.",
    "verify.code.bodyWithLink":
      "Nous vous avons envoyé un lien et un code à six chiffres par e-mail. Ouvrez le lien, ou saisissez le code ici.",
    "verify.code.label": "Code de connexion",
    "verify.code.button": "Se connecter",
    "verify.code.again": "Demander un nouveau code",
    "verify.code.error.InvalidCode": "Ce code n’est pas le bon. Vérifiez l’e-mail et réessayez.",
    "verify.code.error.TooManyAttempts": "Trop de codes erronés pour cette adresse. Patientez quelques minutes, puis réessayez.",
    "verify.code.error.CodeExpired": "Ce code n’est plus valable\u00a0: il a expiré ou a été essayé trop de fois. Demandez-en un nouveau.",
    "verify.code.error.Default": "Une erreur s’est produite. Réessayez, ou demandez un nouveau code.",
    "codeEmail.subject": "Votre code de connexion pour {host}",
    "codeEmail.lead": "Saisissez ce code dans le navigateur où vous avez demandé à vous connecter\u00a0:",
    "codeEmail.link": "Ou ouvrez ce lien pour vous connecter\u00a0:",
    "codeEmail.notice":
      "Ce code ne sert qu’une fois, pendant {minutes}\u00a0minutes. Si vous n’avez pas demandé à vous connecter, ignorez cet e-mail.",
    "codeEmail.noticeWithLink":
      "Le code ne sert qu’une fois, pendant {minutes}\u00a0minutes, et le lien une fois, pendant un temps limité. Si vous n’avez pas demandé à vous connecter, ignorez cet e-mail.",
    "email.subject": "Connexion à {host}",
    "email.button": "Se connecter",
    "email.open": "Ouvrez ce lien pour vous connecter\u00a0:",
    "email.copy": "Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur\u00a0:",
    "email.notice": "Ce lien ne sert qu’une fois, pendant un temps limité. Si vous n’avez pas demandé à vous connecter, ignorez cet e-mail.",
  },
  ja: {
    "verify.body": "ログイン用のリンクをメールでお送りしました。リンクを開いて続行してください。このページは閉じてかまいません。",
    "verify.host": "{host} に戻る",
    "verify.code.body": "6桁のコードをメールでお送りしました。ここに入力してログインしてください。",
    "verify.code.bodyWithLink": "ログイン用のリンクと6桁のコードをメールでお送りしました。リンクを開くか、ここにコードを入力してください。",
    "verify.code.label": "ログインコード",
    "verify.code.button": "ログイン",
    "verify.code.again": "新しいコードを依頼する",
    "verify.code.error.InvalidCode": "コードが正しくありません。メールを確認して、もう一度お試しください。",
    "verify.code.error.TooManyAttempts": "このアドレスで間違ったコードが多すぎます。数分待ってからもう一度お試しください。",
    "verify.code.error.CodeExpired": "このコードは無効になりました。有効期限が切れたか、試行回数が多すぎます。新しいコードを依頼してください。",
    "verify.code.error.Default": "問題が発生しました。もう一度お試しいただくか、新しいコードを依頼してください。",
    "codeEmail.subject": "{host} のログインコード",
    "codeEmail.lead": "ログインを依頼したブラウザーで、次のコードを入力してください：",
    "codeEmail.link": "または、次のリンクを開いてログインしてください：",
    "codeEmail.notice": "このコードは一度だけ、{minutes} 分間使用できます。ログインを依頼していない場合は、このメールを無視してください。",
    "codeEmail.noticeWithLink": "コードは一度だけ {minutes} 分間、リンクは一度だけ一定の時間内に限り使用できます。ログインを依頼していない場合は、このメールを無視してください。",
    "email.subject": "{host} へのログイン",
    "email.button": "ログイン",
    "email.open": "ログインするには、次のリンクを開いてください：",
    "email.copy": "ボタンが機能しない場合は、次のリンクをブラウザーにコピーしてください：",
    "email.notice": "このリンクは一度だけ、一定の時間内に限り使用できます。ログインを依頼していない場合は、このメールを無視してください。",
  },
}
