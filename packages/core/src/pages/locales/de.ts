/**
 * Deutsch (Sie-Form).
 *
 * @module
 */
import type { CoreMessages } from "../messages.js"

export const de: CoreMessages = {
  "signin.heading": "Anmelden",
  "signin.with": "Mit {provider} anmelden",
  "signin.or": "oder",
  "signin.email.label": "E-Mail-Adresse",
  "signin.email.placeholder": "name@beispiel.de",
  "signin.none": "Für diese Website ist keine Anmeldemethode eingerichtet.",
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
  "signin.password.label": "Passwort",
  "signin.error.Default": "Bei der Anmeldung ist etwas schiefgelaufen. Bitte versuchen Sie es erneut.",
  "acting.banner": "Sie sehen die App als {user}, im Auftrag von {actor}, bis {time}.",
  "acting.stop": "Beenden und zum eigenen Konto zurückkehren",
  "signout.heading": "Abmelden",
  "signout.confirm": "Möchten Sie sich jetzt abmelden?",
  "signout.button": "Abmelden",
  "signout.cancel": "Angemeldet bleiben",
  "verify.heading": "Sehen Sie in Ihr Postfach",
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
  "error.heading.Unavailable": "Gleich noch einmal versuchen",
  "error.Unavailable": "Das ist kurz nicht verfügbar: Wir erreichen unsere Daten gerade nicht. Es ist nichts verloren gegangen, und Sie bleiben angemeldet, falls Sie es waren. Versuchen Sie es in ein paar Sekunden erneut.",
  "error.retry": "Erneut versuchen",
  "confirm.heading": "Anmeldung abschließen",
  "confirm.body": "Bei {host} als {email} anmelden?",
  "confirm.button": "Anmelden",
  "confirm.why": "Dieser Klick verhindert, dass Sicherheitsscanner, die Links in E-Mails öffnen, Ihren Link vor Ihnen verwenden.",
  "password.error.wrong-password": "Dieses Passwort stimmt nicht.",
}
