/**
 * The texts of password accounts: the sign-up, forgotten-password, reset and address-confirmation
 * pages, the password form's links on the sign-in page, the sign-in page's notice and error of its
 * own, and the password provider's emails. The address-confirmation page itself is the core's
 * (`pages/confirm-email.ts`), whose password field and error are the core's texts.
 *
 * Its keys and their English texts are declared here, with the texts in every built-in language;
 * the feature declares them (`feature.ts`), the configuration gathers every feature's
 * (`config/appearance.ts`), and an app overrides single keys through the `messages` option as it
 * does the core's.
 *
 * @module
 */
import type { Catalogues } from "../pages/messages.js"

/** The password accounts' texts, by key (part of `Messages`, through `registry.ts`). */
export interface PasswordMessages {
  /** A password sign-in with the right password for an address not confirmed yet; a new link was sent. */
  "signin.error.EmailNotVerified": string
  /** Link from the password form to the forgotten-password page. */
  "signin.password.forgot": string
  /** Link from the password form to the sign-up page. */
  "signin.password.signup": string
  /** Shown on the sign-in page after a password was reset. */
  "signin.notice.PasswordReset": string
  /** The sign-up page. */
  "signup.heading": string
  "signup.name.label": string
  "signup.button": string
  /** Link from the sign-up page to the sign-in page. */
  "signup.signin": string
  /** After a sign-up: an email was sent (the same words whether or not the address had an account). */
  "signup.sent.body": string
  /** Under a new-password field; `{min}` is the fewest characters. */
  "password.hint": string
  "password.error.too-short": string
  "password.error.too-long": string
  "password.error.matches-context": string
  "password.error.breached": string
  /** The address typed is not one plain address. */
  "password.error.invalid-email": string
  "password.error.invalid-field": string
  /** A password reset or confirmation link that is unknown, used or expired. */
  "password.error.invalid-link": string
  "password.error.Default": string
  /** The forgotten-password page. */
  "forgot.heading": string
  "forgot.body": string
  "forgot.button": string
  /** After a forgotten-password request (the same words whether or not the address has an account). */
  "forgot.sent.body": string
  /** Link back to the sign-in page from the password pages. */
  "password.back": string
  /** The page a reset link opens. `{email}` is the account's address. */
  "reset.heading": string
  "reset.body": string
  "reset.label": string
  "reset.button": string
  /** What saving a new password does to other sessions. */
  "reset.notice": string
  /**
   * The page an address-confirmation link opens, which asks for the account's password (so that
   * only whoever chose it can confirm); `{email}` and `{host}` as in `confirm.body`.
   */
  "verifyEmail.heading": string
  "verifyEmail.body": string
  "verifyEmail.button": string
  /** Emails of the password provider; `{host}` is the site's host name. */
  "mail.verify.subject": string
  "mail.verify.lead": string
  "mail.verify.button": string
  "mail.reset.subject": string
  "mail.reset.lead": string
  "mail.reset.button": string
  /** Sent to the owner when someone signs up with an address that has an account. */
  "mail.exists.subject": string
  "mail.exists.lead": string
  /** Sent when a reset is asked for an address without an account. */
  "mail.unknown.subject": string
  "mail.unknown.lead": string
  "mail.unknown.button": string
  /** Last line of a password email whose link works once. */
  "mail.notice": string
  /** Last line of the emails that change nothing by themselves. */
  "mail.notice.nothing": string
}

/** Its texts in every built-in language; a missing language or key is a compile error. */
export const passwordMessages: Catalogues<PasswordMessages> = {
  en: {
    "signin.error.EmailNotVerified": "Confirm your email address first: we’ve sent you a new link. Open it, then sign in.",
    "signin.password.forgot": "Forgot your password?",
    "signin.password.signup": "No account yet? Create one",
    "signin.notice.PasswordReset": "Your password was changed. Sign in with the new one.",
    "signup.heading": "Create an account",
    "signup.name.label": "Name (optional)",
    "signup.button": "Create account",
    "signup.signin": "Already have an account? Sign in",
    "signup.sent.body": "We’ve sent an email to that address. Open the link in it to continue; you can close this page.",
    "password.hint": "At least {min} characters. Any characters are allowed, spaces too: a few unrelated words make a strong password.",
    "password.error.too-short": "That password is too short.",
    "password.error.too-long": "That password is too long.",
    "password.error.matches-context": "Don’t use your email address or the site’s name as your password.",
    "password.error.breached": "This password has appeared in a data breach, so attackers try it. Choose another one.",
    "password.error.invalid-email": "Enter one valid email address.",
    "password.error.invalid-field": "One of the form’s fields holds a value this site does not accept. Check it and try again.",
    "password.error.invalid-link": "This link is no longer valid: it may have expired or been used already. Ask for a new one.",
    "password.error.Default": "Something went wrong. Please try again.",
    "forgot.heading": "Reset your password",
    "forgot.body": "Enter your account’s email address, and we’ll email you a link to choose a new password.",
    "forgot.button": "Email me a link",
    "forgot.sent.body": "We’ve sent an email to that address. Open the link in it to choose a new password; you can close this page.",
    "password.back": "Back to sign-in",
    "reset.heading": "Choose a new password",
    "reset.body": "For the account {email}.",
    "reset.label": "New password",
    "reset.button": "Save the new password",
    "reset.notice": "Saving it signs your account out on every other device.",
    "verifyEmail.heading": "Confirm your email address",
    "verifyEmail.body": "To confirm {email} for your account on {host}, enter the password you chose when you signed up.",
    "verifyEmail.button": "Confirm and sign in",
    "mail.verify.subject": "Confirm your email address for {host}",
    "mail.verify.lead": "Open this link to confirm your address and finish creating your account:",
    "mail.verify.button": "Confirm my address",
    "mail.reset.subject": "Choose a new password for {host}",
    "mail.reset.lead": "Someone, hopefully you, asked to reset your password. Open this link to choose a new one:",
    "mail.reset.button": "Choose a new password",
    "mail.exists.subject": "You already have an account on {host}",
    "mail.exists.lead": "Someone tried to create an account with this address, which already has one. If it was you, sign in, or choose a new password with this link:",
    "mail.unknown.subject": "Password reset for {host}",
    "mail.unknown.lead": "Someone asked to reset the password for this address, but it has no account here. If it was you, you can create one:",
    "mail.unknown.button": "Create an account",
    "mail.notice": "The link works once, for a limited time. If you didn’t ask for this, ignore this email: nothing changes.",
    "mail.notice.nothing": "If you didn’t ask for this, ignore this email: nothing changes.",
  },
  de: {
    "signin.error.EmailNotVerified":
      "Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse: Wir haben Ihnen einen neuen Link geschickt. Öffnen Sie ihn und melden Sie sich dann an.",
    "signin.password.forgot": "Passwort vergessen?",
    "signin.password.signup": "Noch kein Konto? Jetzt registrieren",
    "signin.notice.PasswordReset": "Ihr Passwort wurde geändert. Melden Sie sich mit dem neuen an.",
    "signup.heading": "Konto erstellen",
    "signup.name.label": "Name (freiwillig)",
    "signup.button": "Konto erstellen",
    "signup.signin": "Sie haben bereits ein Konto? Anmelden",
    "signup.sent.body":
      "Wir haben eine E-Mail an diese Adresse geschickt. Öffnen Sie den Link darin, um fortzufahren; diese Seite können Sie schließen.",
    "password.hint":
      "Mindestens {min} Zeichen. Alle Zeichen sind erlaubt, auch Leerzeichen: Ein paar zusammenhanglose Wörter ergeben ein starkes Passwort.",
    "password.error.too-short": "Dieses Passwort ist zu kurz.",
    "password.error.too-long": "Dieses Passwort ist zu lang.",
    "password.error.matches-context": "Verwenden Sie nicht Ihre E-Mail-Adresse oder den Namen der Website als Passwort.",
    "password.error.breached":
      "Dieses Passwort ist in einem Datenleck aufgetaucht und wird daher von Angreifern ausprobiert. Bitte wählen Sie ein anderes.",
    "password.error.invalid-email": "Bitte geben Sie genau eine gültige E-Mail-Adresse ein.",
    "password.error.invalid-field": "Ein Feld des Formulars enthält einen Wert, den diese Website nicht annimmt. Prüfen Sie es und versuchen Sie es erneut.",
    "password.error.invalid-link":
      "Dieser Link ist nicht mehr gültig: Vielleicht ist er abgelaufen oder wurde schon benutzt. Fordern Sie bitte einen neuen an.",
    "password.error.Default": "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.",
    "forgot.heading": "Passwort zurücksetzen",
    "forgot.body": "Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir schicken Ihnen dann einen Link, mit dem Sie ein neues Passwort wählen können.",
    "forgot.button": "Link per E-Mail senden",
    "forgot.sent.body":
      "Wir haben eine E-Mail an diese Adresse geschickt. Öffnen Sie den Link darin, um ein neues Passwort zu wählen; diese Seite können Sie schließen.",
    "password.back": "Zurück zur Anmeldung",
    "reset.heading": "Neues Passwort wählen",
    "reset.body": "Für das Konto {email}.",
    "reset.label": "Neues Passwort",
    "reset.button": "Neues Passwort speichern",
    "reset.notice": "Beim Speichern wird Ihr Konto auf allen anderen Geräten abgemeldet.",
    "verifyEmail.heading": "E-Mail-Adresse bestätigen",
    "verifyEmail.body": "Um {email} für Ihr Konto bei {host} zu bestätigen, geben Sie das Passwort ein, das Sie bei der Registrierung gewählt haben.",
    "verifyEmail.button": "Bestätigen und anmelden",
    "mail.verify.subject": "Bestätigen Sie Ihre E-Mail-Adresse für {host}",
    "mail.verify.lead": "Öffnen Sie diesen Link, um Ihre Adresse zu bestätigen und die Registrierung abzuschließen:",
    "mail.verify.button": "Adresse bestätigen",
    "mail.reset.subject": "Neues Passwort für {host} festlegen",
    "mail.reset.lead": "Jemand, hoffentlich Sie, hat das Zurücksetzen Ihres Passworts angefordert. Öffnen Sie diesen Link, um ein neues zu wählen:",
    "mail.reset.button": "Neues Passwort wählen",
    "mail.exists.subject": "Sie haben bereits ein Konto bei {host}",
    "mail.exists.lead":
      "Jemand wollte mit dieser Adresse ein Konto erstellen, aber zu ihr gibt es bereits eins. Wenn Sie das waren, melden Sie sich an oder wählen Sie mit diesem Link ein neues Passwort:",
    "mail.unknown.subject": "Passwort zurücksetzen bei {host}",
    "mail.unknown.lead":
      "Jemand hat das Zurücksetzen des Passworts für diese Adresse angefordert, aber zu ihr gibt es hier kein Konto. Wenn Sie das waren, können Sie eines erstellen:",
    "mail.unknown.button": "Konto erstellen",
    "mail.notice":
      "Der Link funktioniert einmal und nur für begrenzte Zeit. Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Es ändert sich nichts.",
    "mail.notice.nothing": "Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Es ändert sich nichts.",
  },
  es: {
    "signin.error.EmailNotVerified": "Primero confirma tu correo electrónico: te hemos enviado un enlace nuevo. Ábrelo y después inicia sesión.",
    "signin.password.forgot": "¿Has olvidado tu contraseña?",
    "signin.password.signup": "¿Aún no tienes cuenta? Crea una",
    "signin.notice.PasswordReset": "Se ha cambiado tu contraseña. Inicia sesión con la nueva.",
    "signup.heading": "Crea una cuenta",
    "signup.name.label": "Nombre (opcional)",
    "signup.button": "Crear cuenta",
    "signup.signin": "¿Ya tienes una cuenta? Inicia sesión",
    "signup.sent.body": "Hemos enviado un correo a esa dirección. Abre el enlace que contiene para continuar; puedes cerrar esta página.",
    "password.hint":
      "Al menos {min} caracteres. Se admite cualquier carácter, también espacios: unas cuantas palabras sin relación entre sí forman una contraseña segura.",
    "password.error.too-short": "Esa contraseña es demasiado corta.",
    "password.error.too-long": "Esa contraseña es demasiado larga.",
    "password.error.matches-context": "No uses tu correo electrónico ni el nombre del sitio como contraseña.",
    "password.error.breached": "Esta contraseña ha aparecido en una filtración de datos, así que los atacantes la prueban. Elige otra.",
    "password.error.invalid-email": "Escribe una sola dirección de correo electrónico válida.",
    "password.error.invalid-field": "Uno de los campos del formulario tiene un valor que este sitio no acepta. Revísalo e inténtalo de nuevo.",
    "password.error.invalid-link": "Este enlace ya no es válido: puede que haya caducado o que ya se haya usado. Solicita uno nuevo.",
    "password.error.Default": "Algo ha salido mal. Inténtalo de nuevo.",
    "forgot.heading": "Restablece tu contraseña",
    "forgot.body": "Escribe el correo electrónico de tu cuenta y te enviaremos un enlace para elegir una contraseña nueva.",
    "forgot.button": "Enviarme un enlace",
    "forgot.sent.body":
      "Hemos enviado un correo a esa dirección. Abre el enlace que contiene para elegir una contraseña nueva; puedes cerrar esta página.",
    "password.back": "Volver al inicio de sesión",
    "reset.heading": "Elige una contraseña nueva",
    "reset.body": "Para la cuenta {email}.",
    "reset.label": "Contraseña nueva",
    "reset.button": "Guardar la contraseña nueva",
    "reset.notice": "Al guardarla, se cerrará la sesión de tu cuenta en todos los demás dispositivos.",
    "verifyEmail.heading": "Confirma tu correo electrónico",
    "verifyEmail.body": "Para confirmar {email} en tu cuenta de {host}, escribe la contraseña que elegiste al registrarte.",
    "verifyEmail.button": "Confirmar e iniciar sesión",
    "mail.verify.subject": "Confirma tu correo electrónico para {host}",
    "mail.verify.lead": "Abre este enlace para confirmar tu dirección y terminar de crear tu cuenta:",
    "mail.verify.button": "Confirmar mi dirección",
    "mail.reset.subject": "Elige una contraseña nueva para {host}",
    "mail.reset.lead": "Alguien, esperamos que tú, ha pedido restablecer tu contraseña. Abre este enlace para elegir una nueva:",
    "mail.reset.button": "Elegir una contraseña nueva",
    "mail.exists.subject": "Ya tienes una cuenta en {host}",
    "mail.exists.lead":
      "Alguien ha intentado crear una cuenta con esta dirección, que ya tiene una. Si has sido tú, inicia sesión o elige una contraseña nueva con este enlace:",
    "mail.unknown.subject": "Restablecimiento de contraseña en {host}",
    "mail.unknown.lead":
      "Alguien ha pedido restablecer la contraseña de esta dirección, pero no tiene ninguna cuenta aquí. Si has sido tú, puedes crear una:",
    "mail.unknown.button": "Crear una cuenta",
    "mail.notice": "El enlace funciona una sola vez y durante un tiempo limitado. Si no lo has pedido tú, ignora este correo: no cambiará nada.",
    "mail.notice.nothing": "Si no lo has pedido tú, ignora este correo: no cambiará nada.",
  },
  fr: {
    "signin.error.EmailNotVerified":
      "Confirmez d’abord votre adresse e-mail\u00a0: nous vous avons envoyé un nouveau lien. Ouvrez-le, puis connectez-vous.",
    "signin.password.forgot": "Mot de passe oublié\u00a0?",
    "signin.password.signup": "Pas encore de compte\u00a0? Créez-en un",
    "signin.notice.PasswordReset": "Votre mot de passe a été modifié. Connectez-vous avec le nouveau.",
    "signup.heading": "Créer un compte",
    "signup.name.label": "Nom (facultatif)",
    "signup.button": "Créer le compte",
    "signup.signin": "Vous avez déjà un compte\u00a0? Connectez-vous",
    "signup.sent.body":
      "Nous avons envoyé un e-mail à cette adresse. Ouvrez le lien qu’il contient pour continuer\u00a0; vous pouvez fermer cette page.",
    "password.hint":
      "Au moins {min}\u00a0caractères. Tous les caractères sont permis, espaces compris\u00a0: quelques mots sans rapport entre eux font un mot de passe solide.",
    "password.error.too-short": "Ce mot de passe est trop court.",
    "password.error.too-long": "Ce mot de passe est trop long.",
    "password.error.matches-context": "N’utilisez pas votre adresse e-mail ni le nom du site comme mot de passe.",
    "password.error.breached": "Ce mot de passe figure dans une fuite de données, les attaquants l’essaient donc. Choisissez-en un autre.",
    "password.error.invalid-email": "Saisissez une seule adresse e-mail valide.",
    "password.error.invalid-field": "Un des champs du formulaire contient une valeur que ce site n’accepte pas. Vérifiez-le et réessayez.",
    "password.error.invalid-link": "Ce lien n’est plus valide\u00a0: il a peut-être expiré ou déjà servi. Demandez-en un nouveau.",
    "password.error.Default": "Un problème est survenu. Veuillez réessayer.",
    "forgot.heading": "Réinitialiser votre mot de passe",
    "forgot.body": "Saisissez l’adresse e-mail de votre compte\u00a0: nous vous enverrons un lien pour choisir un nouveau mot de passe.",
    "forgot.button": "M’envoyer un lien",
    "forgot.sent.body":
      "Nous avons envoyé un e-mail à cette adresse. Ouvrez le lien qu’il contient pour choisir un nouveau mot de passe\u00a0; vous pouvez fermer cette page.",
    "password.back": "Retour à la connexion",
    "reset.heading": "Choisir un nouveau mot de passe",
    "reset.body": "Pour le compte {email}.",
    "reset.label": "Nouveau mot de passe",
    "reset.button": "Enregistrer le nouveau mot de passe",
    "reset.notice": "L’enregistrement déconnecte votre compte sur tous vos autres appareils.",
    "verifyEmail.heading": "Confirmer votre adresse e-mail",
    "verifyEmail.body": "Pour confirmer l’adresse {email} de votre compte sur {host}, saisissez le mot de passe choisi lors de votre inscription.",
    "verifyEmail.button": "Confirmer et se connecter",
    "mail.verify.subject": "Confirmez votre adresse e-mail pour {host}",
    "mail.verify.lead": "Ouvrez ce lien pour confirmer votre adresse et finir de créer votre compte\u00a0:",
    "mail.verify.button": "Confirmer mon adresse",
    "mail.reset.subject": "Choisissez un nouveau mot de passe pour {host}",
    "mail.reset.lead": "Quelqu’un, vous espérons-le, a demandé à réinitialiser votre mot de passe. Ouvrez ce lien pour en choisir un nouveau\u00a0:",
    "mail.reset.button": "Choisir un nouveau mot de passe",
    "mail.exists.subject": "Vous avez déjà un compte sur {host}",
    "mail.exists.lead":
      "Quelqu’un a essayé de créer un compte avec cette adresse, qui en a déjà un. Si c’était vous, connectez-vous, ou choisissez un nouveau mot de passe avec ce lien\u00a0:",
    "mail.unknown.subject": "Réinitialisation du mot de passe sur {host}",
    "mail.unknown.lead":
      "Quelqu’un a demandé à réinitialiser le mot de passe de cette adresse, mais aucun compte n’y est associé ici. Si c’était vous, vous pouvez en créer un\u00a0:",
    "mail.unknown.button": "Créer un compte",
    "mail.notice":
      "Ce lien ne sert qu’une fois, pendant un temps limité. Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail\u00a0: rien ne changera.",
    "mail.notice.nothing": "Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail\u00a0: rien ne changera.",
  },
  ja: {
    "signin.error.EmailNotVerified": "先にメールアドレスを確認してください。新しいリンクをお送りしました。リンクを開いてから、ログインしてください。",
    "signin.password.forgot": "パスワードをお忘れですか？",
    "signin.password.signup": "アカウントをお持ちでない方は新規登録",
    "signin.notice.PasswordReset": "パスワードを変更しました。新しいパスワードでログインしてください。",
    "signup.heading": "アカウントを作成",
    "signup.name.label": "名前（任意）",
    "signup.button": "アカウントを作成",
    "signup.signin": "アカウントをお持ちの方はログイン",
    "signup.sent.body": "入力されたアドレスにメールをお送りしました。メール内のリンクを開いて続行してください。このページは閉じてかまいません。",
    "password.hint": "{min}文字以上で入力してください。スペースを含め、どの文字でも使えます。互いに関係のない単語をいくつか組み合わせると、強力なパスワードになります。",
    "password.error.too-short": "パスワードが短すぎます。",
    "password.error.too-long": "パスワードが長すぎます。",
    "password.error.matches-context": "メールアドレスやサイト名をパスワードに使わないでください。",
    "password.error.breached": "このパスワードは過去のデータ漏えいで流出しており、攻撃者に試されるおそれがあります。別のパスワードを選んでください。",
    "password.error.invalid-email": "有効なメールアドレスを1つ入力してください。",
    "password.error.invalid-field": "フォームの項目に、このサイトで受け付けられない値があります。確認してもう一度お試しください。",
    "password.error.invalid-link": "このリンクは無効です。有効期限が切れているか、すでに使用されています。新しいリンクをリクエストしてください。",
    "password.error.Default": "問題が発生しました。もう一度お試しください。",
    "forgot.heading": "パスワードの再設定",
    "forgot.body": "アカウントのメールアドレスを入力してください。新しいパスワードを設定するためのリンクをメールでお送りします。",
    "forgot.button": "リンクを送信",
    "forgot.sent.body": "入力されたアドレスにメールをお送りしました。メール内のリンクを開いて、新しいパスワードを設定してください。このページは閉じてかまいません。",
    "password.back": "ログインページに戻る",
    "reset.heading": "新しいパスワードの設定",
    "reset.body": "対象のアカウント：{email}",
    "reset.label": "新しいパスワード",
    "reset.button": "新しいパスワードを保存",
    "reset.notice": "保存すると、ほかのすべての端末でこのアカウントからログアウトされます。",
    "verifyEmail.heading": "メールアドレスの確認",
    "verifyEmail.body": "{host} のアカウントのメールアドレスとして {email} を確認するには、登録時に設定したパスワードを入力してください。",
    "verifyEmail.button": "確認してログイン",
    "mail.verify.subject": "{host} のメールアドレスを確認してください",
    "mail.verify.lead": "メールアドレスを確認してアカウントの作成を完了するには、次のリンクを開いてください：",
    "mail.verify.button": "メールアドレスを確認",
    "mail.reset.subject": "{host} の新しいパスワードを設定してください",
    "mail.reset.lead": "パスワードの再設定のご依頼がありました。ご本人による依頼であれば、次のリンクを開いて新しいパスワードを設定してください：",
    "mail.reset.button": "新しいパスワードを設定",
    "mail.exists.subject": "すでに {host} のアカウントをお持ちです",
    "mail.exists.lead": "このメールアドレスでアカウントを作成しようとした方がいますが、このアドレスのアカウントはすでに存在します。ご本人の場合は、ログインするか、次のリンクから新しいパスワードを設定してください：",
    "mail.unknown.subject": "{host} のパスワード再設定",
    "mail.unknown.lead": "このメールアドレスのパスワード再設定が依頼されましたが、このアドレスのアカウントはありません。ご本人の場合は、アカウントを作成できます：",
    "mail.unknown.button": "アカウントを作成",
    "mail.notice": "このリンクは一度だけ、一定の時間内に限り使用できます。お心当たりがない場合は、このメールを無視してください。何も変更されません。",
    "mail.notice.nothing": "お心当たりがない場合は、このメールを無視してください。何も変更されません。",
  },
}
