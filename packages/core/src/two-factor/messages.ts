/**
 * The texts of two-factor sign-in: the challenge after the first factor, its settings pages, the
 * recovery codes, the step-up (`reauthenticate`), and the sign-in page's errors of an ended
 * two-factor sign-in.
 *
 * Its keys and their English texts are declared here, with the texts in every built-in language;
 * the feature declares them (`feature.ts`), the configuration gathers every feature's
 * (`config/appearance.ts`), and an app overrides single keys through the `messages` option as it
 * does the core's.
 *
 * @module
 */
import type { Catalogues } from "../pages/messages.js"

/** The two-factor pages' texts, by key (part of `Messages`, through `registry.ts`). */
export interface TwoFactorMessages {
  /** A two-factor sign-in that expired or was already finished: the first step must be done again. */
  "signin.error.TwoFactorExpired": string
  /** Too many wrong second-factor codes ended the sign-in. */
  "signin.error.TwoFactorLocked": string
  /** The two-factor challenge (the step after the first factor); also the heading of its settings page. */
  "twofactor.heading": string
  /** The challenge's lead: an authenticator app's code, or a code sent by email (the address is never shown). */
  "twofactor.totp.lead": string
  "twofactor.email.lead": string
  /** Status line after a code was emailed. */
  "twofactor.email.sent": string
  "twofactor.email.resend": string
  "twofactor.code.label": string
  "twofactor.button": string
  /** The "remember this device" checkbox; `{duration}` is a number of days with its unit ("30 days"). */
  "twofactor.remember": string
  /** Links between the code form and the recovery-code form. */
  "twofactor.recovery.link": string
  "twofactor.totp.link": string
  "twofactor.email.link": string
  "twofactor.recovery.lead": string
  "twofactor.recovery.label": string
  /** Under the recovery-code field: its shape. */
  "twofactor.recovery.hint": string
  /** Back to the sign-in page from the challenge. */
  "twofactor.cancel": string
  "twofactor.error.InvalidCode": string
  "twofactor.error.TooManyAttempts": string
  /** Too many attempts, when the wait is known; `{when}` is a relative time ("in 5 minutes"). */
  "twofactor.error.TooManyAttempts.wait": string
  "twofactor.error.SendFailed": string
  "twofactor.error.CodeExpired": string
  "twofactor.error.SetupExpired": string
  "twofactor.error.Default": string
  /** Turning the second factor on: the QR code, the key as text, the code that confirms it. */
  "twofactor.setup.heading": string
  "twofactor.setup.lead": string
  /** The QR code's accessible name. */
  "twofactor.setup.qr": string
  "twofactor.setup.key": string
  /** Link with the `otpauth:` URI, for an authenticator app on the same device. */
  "twofactor.setup.open": string
  "twofactor.setup.code": string
  "twofactor.setup.button": string
  /** When codes by email are offered instead of an app. */
  "twofactor.setup.email.lead": string
  "twofactor.setup.email.button": string
  "twofactor.back": string
  "twofactor.done": string
  /** Status lines after turning the second factor on or off. */
  "twofactor.notice.enabled": string
  "twofactor.notice.disabled": string
  /** The settings page once it is on; `{date}` is the date it was turned on. */
  "twofactor.status.totp": string
  "twofactor.status.email": string
  /** `{count}` is how many unused recovery codes remain. */
  "twofactor.status.recovery": string
  /** An admin's view of a user without a second factor. */
  "twofactor.status.off": string
  /** The field asking for a current code before a change. */
  "twofactor.manage.code": string
  "twofactor.regenerate.heading": string
  "twofactor.regenerate.body": string
  "twofactor.regenerate.button": string
  "twofactor.disable.heading": string
  "twofactor.disable.button": string
  /** The page that shows new recovery codes, once. */
  "twofactor.codes.heading": string
  "twofactor.codes.lead": string
  "twofactor.codes.once": string
  /** Label of the box holding every code, for copying. */
  "twofactor.codes.copy": string
  "twofactor.codes.continue": string
  /** "Confirm it's you": a fresh code before a sensitive action. */
  "reauth.heading": string
  "reauth.lead": string
  "reauth.button": string
  /** Link to the sign-in page instead. */
  "reauth.signin": string
}

/** Its texts in every built-in language; a missing language or key is a compile error. */
export const twoFactorMessages: Catalogues<TwoFactorMessages> = {
  en: {
    "signin.error.TwoFactorExpired": "Your sign-in took too long or was already used: sign in again.",
    "signin.error.TwoFactorLocked": "Too many wrong codes: sign in again.",
    "twofactor.heading": "Two-factor authentication",
    "twofactor.totp.lead": "Enter the code from your authenticator app.",
    "twofactor.email.lead": "Enter the code we sent to your email address.",
    "twofactor.email.sent": "We’ve sent you a code by email. It can take a minute to arrive.",
    "twofactor.email.resend": "Send me a new code",
    "twofactor.code.label": "Verification code",
    "twofactor.button": "Continue",
    "twofactor.remember": "Don’t ask again on this device for {duration}",
    "twofactor.recovery.link": "Use a recovery code instead",
    "twofactor.totp.link": "Use a code from your authenticator app",
    "twofactor.email.link": "Use a code sent by email",
    "twofactor.recovery.lead": "Enter one of the recovery codes you saved when you turned on two-factor authentication. Each code works once.",
    "twofactor.recovery.label": "Recovery code",
    "twofactor.recovery.hint": "It looks like xxxxx-xxxxx.",
    "twofactor.cancel": "Cancel and go back to sign-in",
    "twofactor.error.InvalidCode": "That code is not right. Check it and try again.",
    "twofactor.error.TooManyAttempts": "Too many wrong codes. Wait a little, then try again.",
    "twofactor.error.TooManyAttempts.wait": "Too many wrong codes. Try again {when}.",
    "twofactor.error.SendFailed": "We couldn’t send the code. Try again in a moment.",
    "twofactor.error.CodeExpired": "That code has expired. Send a new one, then enter it.",
    "twofactor.error.SetupExpired": "The setup took too long. Scan the new QR code, then enter a code from your app.",
    "twofactor.error.Default": "Something went wrong. Please try again.",
    "twofactor.setup.heading": "Set up two-factor authentication",
    "twofactor.setup.lead": "Scan this QR code with your authenticator app, then enter the code the app shows.",
    "twofactor.setup.qr": "QR code to add your account to an authenticator app",
    "twofactor.setup.key": "Can’t scan it? Type this key into the app:",
    "twofactor.setup.open": "Open in an authenticator app on this device",
    "twofactor.setup.code": "Code from the app",
    "twofactor.setup.button": "Turn on two-factor authentication",
    "twofactor.setup.email.lead": "No authenticator app? Get a code by email each time you sign in instead.",
    "twofactor.setup.email.button": "Use codes sent by email",
    "twofactor.back": "Back",
    "twofactor.done": "Done",
    "twofactor.notice.enabled": "Two-factor authentication is on.",
    "twofactor.notice.disabled": "Two-factor authentication is off.",
    "twofactor.status.totp": "On since {date}, with an authenticator app.",
    "twofactor.status.email": "On since {date}, with codes sent by email.",
    "twofactor.status.recovery": "Recovery codes left: {count}",
    "twofactor.status.off": "Off.",
    "twofactor.manage.code": "Current code from your authenticator app",
    "twofactor.regenerate.heading": "Recovery codes",
    "twofactor.regenerate.body": "New codes replace the ones you have: the old ones stop working.",
    "twofactor.regenerate.button": "Make new recovery codes",
    "twofactor.disable.heading": "Turn off two-factor authentication",
    "twofactor.disable.button": "Turn it off",
    "twofactor.codes.heading": "Save your recovery codes",
    "twofactor.codes.lead": "If you can’t get a code, each of these lets you sign in once. Keep them somewhere safe, such as a password manager.",
    "twofactor.codes.once": "They are shown only this once.",
    "twofactor.codes.copy": "All the codes, to copy",
    "twofactor.codes.continue": "I have saved them",
    "reauth.heading": "Confirm it’s you",
    "reauth.lead": "Enter the code from your authenticator app to continue.",
    "reauth.button": "Confirm",
    "reauth.signin": "Sign in again instead",
  },
  de: {
    "signin.error.TwoFactorExpired": "Ihre Anmeldung hat zu lange gedauert oder wurde schon verwendet: Bitte melden Sie sich erneut an.",
    "signin.error.TwoFactorLocked": "Zu viele falsche Codes: Bitte melden Sie sich erneut an.",
    "twofactor.heading": "Zwei-Faktor-Authentifizierung",
    "twofactor.totp.lead": "Geben Sie den Code aus Ihrer Authenticator-App ein.",
    "twofactor.email.lead": "Geben Sie den Code ein, den wir an Ihre E-Mail-Adresse geschickt haben.",
    "twofactor.email.sent": "Wir haben Ihnen einen Code per E-Mail geschickt. Es kann eine Minute dauern, bis er ankommt.",
    "twofactor.email.resend": "Neuen Code senden",
    "twofactor.code.label": "Bestätigungscode",
    "twofactor.button": "Weiter",
    "twofactor.remember": "Auf diesem Gerät {duration} lang nicht mehr fragen",
    "twofactor.recovery.link": "Stattdessen einen Wiederherstellungscode verwenden",
    "twofactor.totp.link": "Einen Code aus Ihrer Authenticator-App verwenden",
    "twofactor.email.link": "Einen Code per E-Mail verwenden",
    "twofactor.recovery.lead":
      "Geben Sie einen der Wiederherstellungscodes ein, die Sie beim Einschalten der Zwei-Faktor-Authentifizierung gespeichert haben. Jeder Code funktioniert nur einmal.",
    "twofactor.recovery.label": "Wiederherstellungscode",
    "twofactor.recovery.hint": "Er sieht so aus: xxxxx-xxxxx.",
    "twofactor.cancel": "Abbrechen und zurück zur Anmeldung",
    "twofactor.error.InvalidCode": "Dieser Code stimmt nicht. Bitte prüfen Sie ihn und versuchen Sie es erneut.",
    "twofactor.error.TooManyAttempts": "Zu viele falsche Codes. Warten Sie kurz und versuchen Sie es dann erneut.",
    "twofactor.error.TooManyAttempts.wait": "Zu viele falsche Codes. Versuchen Sie es {when} erneut.",
    "twofactor.error.SendFailed": "Der Code konnte nicht gesendet werden. Versuchen Sie es gleich noch einmal.",
    "twofactor.error.CodeExpired": "Dieser Code ist abgelaufen. Lassen Sie sich einen neuen senden und geben Sie ihn ein.",
    "twofactor.error.SetupExpired": "Die Einrichtung hat zu lange gedauert. Scannen Sie den neuen QR-Code und geben Sie dann einen Code aus Ihrer App ein.",
    "twofactor.error.Default": "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.",
    "twofactor.setup.heading": "Zwei-Faktor-Authentifizierung einrichten",
    "twofactor.setup.lead": "Scannen Sie diesen QR-Code mit Ihrer Authenticator-App und geben Sie dann den Code ein, den die App anzeigt.",
    "twofactor.setup.qr": "QR-Code, um Ihr Konto zu einer Authenticator-App hinzuzufügen",
    "twofactor.setup.key": "Scannen nicht möglich? Geben Sie diesen Schlüssel in der App ein:",
    "twofactor.setup.open": "In einer Authenticator-App auf diesem Gerät öffnen",
    "twofactor.setup.code": "Code aus der App",
    "twofactor.setup.button": "Zwei-Faktor-Authentifizierung einschalten",
    "twofactor.setup.email.lead": "Keine Authenticator-App? Erhalten Sie stattdessen bei jeder Anmeldung einen Code per E-Mail.",
    "twofactor.setup.email.button": "Codes per E-Mail verwenden",
    "twofactor.back": "Zurück",
    "twofactor.done": "Fertig",
    "twofactor.notice.enabled": "Die Zwei-Faktor-Authentifizierung ist eingeschaltet.",
    "twofactor.notice.disabled": "Die Zwei-Faktor-Authentifizierung ist ausgeschaltet.",
    "twofactor.status.totp": "Eingeschaltet seit {date}, mit einer Authenticator-App.",
    "twofactor.status.email": "Eingeschaltet seit {date}, mit Codes per E-Mail.",
    "twofactor.status.recovery": "Verbleibende Wiederherstellungscodes: {count}",
    "twofactor.status.off": "Ausgeschaltet.",
    "twofactor.manage.code": "Aktueller Code aus Ihrer Authenticator-App",
    "twofactor.regenerate.heading": "Wiederherstellungscodes",
    "twofactor.regenerate.body": "Neue Codes ersetzen Ihre bisherigen: Die alten funktionieren dann nicht mehr.",
    "twofactor.regenerate.button": "Neue Wiederherstellungscodes erstellen",
    "twofactor.disable.heading": "Zwei-Faktor-Authentifizierung ausschalten",
    "twofactor.disable.button": "Ausschalten",
    "twofactor.codes.heading": "Speichern Sie Ihre Wiederherstellungscodes",
    "twofactor.codes.lead":
      "Wenn Sie keinen Code erhalten können, melden Sie sich mit jedem dieser Codes einmal an. Bewahren Sie sie sicher auf, etwa in einem Passwort-Manager.",
    "twofactor.codes.once": "Sie werden nur dieses eine Mal angezeigt.",
    "twofactor.codes.copy": "Alle Codes zum Kopieren",
    "twofactor.codes.continue": "Ich habe sie gespeichert",
    "reauth.heading": "Bestätigen Sie, dass Sie es sind",
    "reauth.lead": "Geben Sie den Code aus Ihrer Authenticator-App ein, um fortzufahren.",
    "reauth.button": "Bestätigen",
    "reauth.signin": "Stattdessen neu anmelden",
  },
  es: {
    "signin.error.TwoFactorExpired": "Tu inicio de sesión ha tardado demasiado o ya se ha usado: vuelve a iniciar sesión.",
    "signin.error.TwoFactorLocked": "Demasiados códigos incorrectos: vuelve a iniciar sesión.",
    "twofactor.heading": "Verificación en dos pasos",
    "twofactor.totp.lead": "Introduce el código de tu aplicación de autenticación.",
    "twofactor.email.lead": "Introduce el código que hemos enviado a tu correo electrónico.",
    "twofactor.email.sent": "Te hemos enviado un código por correo. Puede tardar un minuto en llegar.",
    "twofactor.email.resend": "Enviarme un código nuevo",
    "twofactor.code.label": "Código de verificación",
    "twofactor.button": "Continuar",
    "twofactor.remember": "No volver a preguntar en este dispositivo durante {duration}",
    "twofactor.recovery.link": "Usar un código de recuperación",
    "twofactor.totp.link": "Usar un código de tu aplicación de autenticación",
    "twofactor.email.link": "Usar un código enviado por correo",
    "twofactor.recovery.lead":
      "Introduce uno de los códigos de recuperación que guardaste al activar la verificación en dos pasos. Cada código funciona una sola vez.",
    "twofactor.recovery.label": "Código de recuperación",
    "twofactor.recovery.hint": "Tiene este aspecto: xxxxx-xxxxx.",
    "twofactor.cancel": "Cancelar y volver al inicio de sesión",
    "twofactor.error.InvalidCode": "Ese código no es correcto. Revísalo e inténtalo de nuevo.",
    "twofactor.error.TooManyAttempts": "Demasiados códigos incorrectos. Espera un poco y vuelve a intentarlo.",
    "twofactor.error.TooManyAttempts.wait": "Demasiados códigos incorrectos. Vuelve a intentarlo {when}.",
    "twofactor.error.SendFailed": "No hemos podido enviar el código. Inténtalo de nuevo en un momento.",
    "twofactor.error.CodeExpired": "Ese código ha caducado. Pide uno nuevo e introdúcelo.",
    "twofactor.error.SetupExpired": "La configuración ha tardado demasiado. Escanea el nuevo código QR e introduce un código de tu aplicación.",
    "twofactor.error.Default": "Algo ha fallado. Inténtalo de nuevo.",
    "twofactor.setup.heading": "Configurar la verificación en dos pasos",
    "twofactor.setup.lead": "Escanea este código QR con tu aplicación de autenticación y después introduce el código que muestre.",
    "twofactor.setup.qr": "Código QR para añadir tu cuenta a una aplicación de autenticación",
    "twofactor.setup.key": "¿No puedes escanearlo? Escribe esta clave en la aplicación:",
    "twofactor.setup.open": "Abrir en una aplicación de autenticación de este dispositivo",
    "twofactor.setup.code": "Código de la aplicación",
    "twofactor.setup.button": "Activar la verificación en dos pasos",
    "twofactor.setup.email.lead": "¿No tienes aplicación de autenticación? Recibe un código por correo cada vez que inicies sesión.",
    "twofactor.setup.email.button": "Usar códigos enviados por correo",
    "twofactor.back": "Volver",
    "twofactor.done": "Listo",
    "twofactor.notice.enabled": "La verificación en dos pasos está activada.",
    "twofactor.notice.disabled": "La verificación en dos pasos está desactivada.",
    "twofactor.status.totp": "Activada desde el {date}, con una aplicación de autenticación.",
    "twofactor.status.email": "Activada desde el {date}, con códigos enviados por correo.",
    "twofactor.status.recovery": "Códigos de recuperación restantes: {count}",
    "twofactor.status.off": "Desactivada.",
    "twofactor.manage.code": "Código actual de tu aplicación de autenticación",
    "twofactor.regenerate.heading": "Códigos de recuperación",
    "twofactor.regenerate.body": "Los códigos nuevos sustituyen a los que tienes: los antiguos dejarán de funcionar.",
    "twofactor.regenerate.button": "Crear códigos de recuperación nuevos",
    "twofactor.disable.heading": "Desactivar la verificación en dos pasos",
    "twofactor.disable.button": "Desactivar",
    "twofactor.codes.heading": "Guarda tus códigos de recuperación",
    "twofactor.codes.lead":
      "Si no puedes conseguir un código, cada uno de estos te permite iniciar sesión una vez. Guárdalos en un lugar seguro, como un gestor de contraseñas.",
    "twofactor.codes.once": "Solo se muestran esta vez.",
    "twofactor.codes.copy": "Todos los códigos, para copiarlos",
    "twofactor.codes.continue": "Ya los he guardado",
    "reauth.heading": "Confirma que eres tú",
    "reauth.lead": "Introduce el código de tu aplicación de autenticación para continuar.",
    "reauth.button": "Confirmar",
    "reauth.signin": "Volver a iniciar sesión",
  },
  fr: {
    "signin.error.TwoFactorExpired": "Votre connexion a pris trop de temps ou a déjà été utilisée\u00a0: connectez-vous à nouveau.",
    "signin.error.TwoFactorLocked": "Trop de codes erronés\u00a0: connectez-vous à nouveau.",
    "twofactor.heading": "Authentification à deux facteurs",
    "twofactor.totp.lead": "Saisissez le code affiché par votre application d’authentification.",
    "twofactor.email.lead": "Saisissez le code que nous avons envoyé à votre adresse e-mail.",
    "twofactor.email.sent": "Nous vous avons envoyé un code par e-mail. Il peut mettre une minute à arriver.",
    "twofactor.email.resend": "M’envoyer un nouveau code",
    "twofactor.code.label": "Code de vérification",
    "twofactor.button": "Continuer",
    "twofactor.remember": "Ne plus demander sur cet appareil pendant {duration}",
    "twofactor.recovery.link": "Utiliser plutôt un code de récupération",
    "twofactor.totp.link": "Utiliser un code de votre application d’authentification",
    "twofactor.email.link": "Utiliser un code reçu par e-mail",
    "twofactor.recovery.lead":
      "Saisissez l’un des codes de récupération enregistrés lors de l’activation de l’authentification à deux facteurs. Chaque code ne sert qu’une fois.",
    "twofactor.recovery.label": "Code de récupération",
    "twofactor.recovery.hint": "Il a la forme xxxxx-xxxxx.",
    "twofactor.cancel": "Annuler et revenir à la connexion",
    "twofactor.error.InvalidCode": "Ce code n’est pas le bon. Vérifiez-le et réessayez.",
    "twofactor.error.TooManyAttempts": "Trop de codes erronés. Patientez un peu, puis réessayez.",
    "twofactor.error.TooManyAttempts.wait": "Trop de codes erronés. Réessayez {when}.",
    "twofactor.error.SendFailed": "Nous n’avons pas pu envoyer le code. Réessayez dans un instant.",
    "twofactor.error.CodeExpired": "Ce code a expiré. Demandez-en un nouveau, puis saisissez-le.",
    "twofactor.error.SetupExpired": "La configuration a pris trop de temps. Scannez le nouveau code QR, puis saisissez un code de votre application.",
    "twofactor.error.Default": "Un problème est survenu. Veuillez réessayer.",
    "twofactor.setup.heading": "Configurer l’authentification à deux facteurs",
    "twofactor.setup.lead": "Scannez ce code QR avec votre application d’authentification, puis saisissez le code qu’elle affiche.",
    "twofactor.setup.qr": "Code QR pour ajouter votre compte à une application d’authentification",
    "twofactor.setup.key": "Impossible de le scanner\u00a0? Saisissez cette clé dans l’application\u00a0:",
    "twofactor.setup.open": "Ouvrir dans une application d’authentification sur cet appareil",
    "twofactor.setup.code": "Code de l’application",
    "twofactor.setup.button": "Activer l’authentification à deux facteurs",
    "twofactor.setup.email.lead": "Pas d’application d’authentification\u00a0? Recevez plutôt un code par e-mail à chaque connexion.",
    "twofactor.setup.email.button": "Utiliser des codes envoyés par e-mail",
    "twofactor.back": "Retour",
    "twofactor.done": "Terminé",
    "twofactor.notice.enabled": "L’authentification à deux facteurs est activée.",
    "twofactor.notice.disabled": "L’authentification à deux facteurs est désactivée.",
    "twofactor.status.totp": "Activée depuis le {date}, avec une application d’authentification.",
    "twofactor.status.email": "Activée depuis le {date}, avec des codes envoyés par e-mail.",
    "twofactor.status.recovery": "Codes de récupération restants\u00a0: {count}",
    "twofactor.status.off": "Désactivée.",
    "twofactor.manage.code": "Code actuel de votre application d’authentification",
    "twofactor.regenerate.heading": "Codes de récupération",
    "twofactor.regenerate.body": "De nouveaux codes remplacent ceux que vous avez\u00a0: les anciens ne fonctionneront plus.",
    "twofactor.regenerate.button": "Créer de nouveaux codes de récupération",
    "twofactor.disable.heading": "Désactiver l’authentification à deux facteurs",
    "twofactor.disable.button": "Désactiver",
    "twofactor.codes.heading": "Enregistrez vos codes de récupération",
    "twofactor.codes.lead":
      "Si vous ne pouvez pas obtenir de code, chacun de ceux-ci vous permet de vous connecter une fois. Gardez-les en lieu sûr, par exemple dans un gestionnaire de mots de passe.",
    "twofactor.codes.once": "Ils ne s’affichent que cette fois.",
    "twofactor.codes.copy": "Tous les codes, à copier",
    "twofactor.codes.continue": "Je les ai enregistrés",
    "reauth.heading": "Confirmez votre identité",
    "reauth.lead": "Saisissez le code de votre application d’authentification pour continuer.",
    "reauth.button": "Confirmer",
    "reauth.signin": "Me reconnecter plutôt",
  },
  ja: {
    "signin.error.TwoFactorExpired": "ログインに時間がかかりすぎたか、すでに使用されています。もう一度ログインしてください。",
    "signin.error.TwoFactorLocked": "間違ったコードが多すぎます。もう一度ログインしてください。",
    "twofactor.heading": "2段階認証",
    "twofactor.totp.lead": "認証アプリに表示されているコードを入力してください。",
    "twofactor.email.lead": "メールアドレスに送信したコードを入力してください。",
    "twofactor.email.sent": "コードをメールで送信しました。届くまで1分ほどかかることがあります。",
    "twofactor.email.resend": "新しいコードを送信",
    "twofactor.code.label": "確認コード",
    "twofactor.button": "続ける",
    "twofactor.remember": "このデバイスでは{duration}間、コードの入力を省略する",
    "twofactor.recovery.link": "代わりにリカバリーコードを使う",
    "twofactor.totp.link": "認証アプリのコードを使う",
    "twofactor.email.link": "メールで届いたコードを使う",
    "twofactor.recovery.lead": "2段階認証を有効にしたときに保存したリカバリーコードを1つ入力してください。各コードは1回だけ使用できます。",
    "twofactor.recovery.label": "リカバリーコード",
    "twofactor.recovery.hint": "形式：xxxxx-xxxxx",
    "twofactor.cancel": "キャンセルしてログイン画面に戻る",
    "twofactor.error.InvalidCode": "コードが正しくありません。確認して、もう一度お試しください。",
    "twofactor.error.TooManyAttempts": "間違ったコードが多すぎます。しばらく待ってから、もう一度お試しください。",
    "twofactor.error.TooManyAttempts.wait": "間違ったコードが多すぎます。{when}にもう一度お試しください。",
    "twofactor.error.SendFailed": "コードを送信できませんでした。少し待ってから、もう一度お試しください。",
    "twofactor.error.CodeExpired": "このコードは有効期限が切れました。新しいコードを送信して入力してください。",
    "twofactor.error.SetupExpired": "設定に時間がかかりすぎました。新しい QR コードを読み取り、アプリのコードを入力してください。",
    "twofactor.error.Default": "問題が発生しました。もう一度お試しください。",
    "twofactor.setup.heading": "2段階認証を設定",
    "twofactor.setup.lead": "認証アプリでこのQRコードをスキャンし、アプリに表示されたコードを入力してください。",
    "twofactor.setup.qr": "アカウントを認証アプリに追加するためのQRコード",
    "twofactor.setup.key": "スキャンできない場合は、このキーをアプリに入力してください：",
    "twofactor.setup.open": "このデバイスの認証アプリで開く",
    "twofactor.setup.code": "アプリに表示されたコード",
    "twofactor.setup.button": "2段階認証を有効にする",
    "twofactor.setup.email.lead": "認証アプリをお持ちでない場合は、代わりにログインのたびにメールでコードを受け取れます。",
    "twofactor.setup.email.button": "メールで届くコードを使う",
    "twofactor.back": "戻る",
    "twofactor.done": "完了",
    "twofactor.notice.enabled": "2段階認証を有効にしました。",
    "twofactor.notice.disabled": "2段階認証を無効にしました。",
    "twofactor.status.totp": "{date}から有効（認証アプリ）。",
    "twofactor.status.email": "{date}から有効（メールで届くコード）。",
    "twofactor.status.recovery": "残りのリカバリーコード：{count}",
    "twofactor.status.off": "無効。",
    "twofactor.manage.code": "認証アプリに表示されている現在のコード",
    "twofactor.regenerate.heading": "リカバリーコード",
    "twofactor.regenerate.body": "新しいコードを作成すると、今までのコードは使えなくなります。",
    "twofactor.regenerate.button": "新しいリカバリーコードを作成",
    "twofactor.disable.heading": "2段階認証を無効にする",
    "twofactor.disable.button": "無効にする",
    "twofactor.codes.heading": "リカバリーコードを保存してください",
    "twofactor.codes.lead": "コードを受け取れないときは、これらのコードでそれぞれ1回ログインできます。パスワードマネージャーなど、安全な場所に保管してください。",
    "twofactor.codes.once": "これらのコードが表示されるのは今回だけです。",
    "twofactor.codes.copy": "コピー用のすべてのコード",
    "twofactor.codes.continue": "保存しました",
    "reauth.heading": "ご本人確認",
    "reauth.lead": "続けるには、認証アプリに表示されているコードを入力してください。",
    "reauth.button": "確認",
    "reauth.signin": "代わりにもう一度ログインする",
  },
}
