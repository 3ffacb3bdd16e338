/**
 * Deutsch (Sie-Form).
 *
 * @module
 */
import type { Messages } from "../messages.js"

export const de: Messages = {
  "signin.heading": "Anmelden",
  "signin.with": "Mit {provider} anmelden",
  "signin.or": "oder",
  "signin.email.label": "E-Mail-Adresse",
  "signin.email.placeholder": "name@beispiel.de",
  "signin.none": "Für diese Website ist keine Anmeldemethode eingerichtet.",
  "signin.passkey.hint": "Geben Sie Ihre E-Mail-Adresse ein, um einen Passkey zu erstellen, oder lassen Sie das Feld leer, um einen vorhandenen zu verwenden.",
  "signin.passkey.working": "Warten auf Ihren Passkey …",
  "signin.passkey.failed": "Die Passkey-Anfrage wurde abgebrochen oder ist abgelaufen. Bitte versuchen Sie es erneut.",
  "signin.error.CredentialsSignin": "Mit diesen Angaben konnten wir Sie nicht anmelden. Bitte prüfen Sie sie und versuchen Sie es erneut.",
  "signin.error.OAuthAccountNotLinked":
    "Zu dieser E-Mail-Adresse gibt es bereits ein Konto. Melden Sie sich bitte so an wie beim ersten Mal, damit wir wissen, dass Sie es sind.",
  "signin.error.OAuthCallbackError":
    "Der Anmeldedienst hat ein Problem gemeldet. Versuchen Sie es erneut oder wählen Sie eine andere Anmeldemethode.",
  "signin.error.OAuthSignInError":
    "Die Anmeldung bei diesem Dienst ließ sich nicht starten. Versuchen Sie es erneut oder wählen Sie eine andere Anmeldemethode.",
  "signin.error.InvalidCheck":
    "Diese Anmeldung ließ sich nicht bestätigen: Vielleicht hat sie zu lange gedauert oder wurde in einem anderen Browser begonnen. Bitte versuchen Sie es erneut.",
  "signin.error.AccessDenied": "Dieses Konto darf sich nicht anmelden.",
  "signin.error.Verification":
    "Dieser Anmeldelink ist nicht mehr gültig: Vielleicht ist er abgelaufen oder wurde schon benutzt. Fordern Sie bitte einen neuen an.",
  "signin.error.MissingCSRF": "Das Formular ist abgelaufen, oder Ihr Browser hat sein Cookie blockiert. Bitte versuchen Sie es erneut.",
  "signin.error.SessionRequired": "Bitte melden Sie sich an, um diese Seite zu sehen.",
  "signin.error.EmailSignin": "Die Anmelde-E-Mail konnte nicht gesendet werden. Prüfen Sie die Adresse und versuchen Sie es erneut.",
  "signin.error.AccountNotLinked":
    "Diese Anmeldemethode gehört zu einem anderen Konto. Verwenden Sie die Methode, mit der Sie sich registriert haben.",
  "signin.error.WebAuthnVerificationError": "Ihr Passkey konnte nicht überprüft werden. Bitte versuchen Sie es erneut.",
  "signin.error.EmailNotVerified":
    "Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse: Wir haben Ihnen einen neuen Link geschickt. Öffnen Sie ihn und melden Sie sich dann an.",
  "signin.password.label": "Passwort",
  "signin.password.forgot": "Passwort vergessen?",
  "signin.password.signup": "Noch kein Konto? Jetzt registrieren",
  "signin.notice.PasswordReset": "Ihr Passwort wurde geändert. Melden Sie sich mit dem neuen an.",
  "signin.error.Default": "Bei der Anmeldung ist etwas schiefgelaufen. Bitte versuchen Sie es erneut.",
  "signout.heading": "Abmelden",
  "signout.confirm": "Möchten Sie sich jetzt abmelden?",
  "signout.button": "Abmelden",
  "signout.cancel": "Angemeldet bleiben",
  "verify.heading": "Sehen Sie in Ihr Postfach",
  "verify.body": "Wir haben Ihnen einen Anmeldelink per E-Mail geschickt. Öffnen Sie ihn, um fortzufahren; diese Seite können Sie schließen.",
  "verify.host": "Zurück zu {host}",
  "error.back": "Zur Anmeldung",
  "error.heading.Configuration": "Serverfehler",
  "error.heading.AccessDenied": "Zugriff verweigert",
  "error.heading.Verification": "Anmeldung nicht möglich",
  "error.heading.Default": "Fehler",
  "error.Configuration":
    "Der Server ist nicht richtig eingerichtet, deshalb ist eine Anmeldung gerade nicht möglich. Wenn Sie diese Website betreiben, finden Sie den Grund in den Server-Logs.",
  "error.AccessDenied": "Dieses Konto darf sich hier nicht anmelden.",
  "error.Verification":
    "Dieser Anmeldelink ist nicht mehr gültig: Vielleicht ist er abgelaufen oder wurde schon benutzt. Fordern Sie bitte einen neuen an.",
  "error.Default": "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.",
  "confirm.heading": "Anmeldung abschließen",
  "confirm.body": "Bei {host} als {email} anmelden?",
  "confirm.button": "Anmelden",
  "confirm.why": "Dieser Klick verhindert, dass Sicherheitsscanner, die Links in E-Mails öffnen, Ihren Link vor Ihnen verwenden.",
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
  "password.error.invalid-link":
    "Dieser Link ist nicht mehr gültig: Vielleicht ist er abgelaufen oder wurde schon benutzt. Fordern Sie bitte einen neuen an.",
  "password.error.wrong-password": "Dieses Passwort stimmt nicht.",
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
  "email.subject": "Anmeldung bei {host}",
  "email.button": "Anmelden",
  "email.open": "Öffnen Sie diesen Link, um sich anzumelden:",
  "email.copy": "Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:",
  "email.notice": "Der Link funktioniert einmal und nur für begrenzte Zeit. Wenn Sie keine Anmeldung angefordert haben, können Sie diese E-Mail ignorieren.",
}
