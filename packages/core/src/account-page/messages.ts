/**
 * The texts of the account page (`GET <basePath>/account`), its address-change link's page and
 * the emails of an address change. Its keys and their English texts are declared here, with the
 * texts in every built-in language; the feature declares them (`feature.ts`), and an app overrides
 * single keys through the `messages` option as it does the core's.
 *
 * @module
 */
import type { Catalogues } from "../pages/messages.js"

/** The account page's texts, by key (part of `Messages`, through `registry.ts`). */
export interface AccountPageMessages {
  /** The page's heading and title. */
  "account.heading": string
  /** `{email}` is the signed-in user's address (or name). */
  "account.signedInAs": string
  /** The accessible name of the list of sections. */
  "account.nav": string
  /** Shown when the sign-in is not recent: weakening changes will ask to confirm it's you. */
  "account.stale": string
  /** Link to the step-up. */
  "account.stale.link": string
  /** Link back to the app. */
  "account.back": string
  /** Link to the sign-out page. */
  "account.signout": string
  /** Any other error. */
  "account.error.Default": string
  /** An item (a session, a passkey, an account) that is not the user's, or is gone. */
  "account.error.NotFound": string
  /** Removing it would leave no way to sign in. */
  "account.error.LastSignInMethod": string
  "account.error.Acting": string
  /** A profile field with a value the site does not accept. */
  "account.error.InvalidField": string
  /** The picture is not an https link. */
  "account.error.InvalidImage": string
  "account.error.InvalidEmail": string
  "account.error.SameEmail": string
  "account.error.SendFailed": string
  "account.error.WrongPassword": string
  "account.error.TooManyAttempts": string
  /** A passkey name that is empty or too long. */
  "account.error.InvalidName": string
  "account.error.ConfirmDelete": string
  "account.profile.heading": string
  "account.profile.name": string
  "account.profile.image": string
  "account.profile.image.hint": string
  /** The empty choice of a yes/no field. */
  "account.profile.unset": string
  "account.profile.yes": string
  "account.profile.no": string
  "account.profile.save": string
  "account.notice.profile": string
  "account.email.heading": string
  /** `{email}` is the current address. */
  "account.email.current": string
  "account.email.none": string
  "account.email.label": string
  "account.email.hint": string
  "account.email.button": string
  /** After asking for a change: the same text whether or not the address has an account. */
  "account.notice.email-sent": string
  "account.notice.email-changed": string
  /** The page a change link opens. */
  "account.confirm.heading": string
  /** `{host}` is the site, `{email}` the new address. */
  "account.confirm.body": string
  "account.confirm.button": string
  "account.confirm.error.InvalidLink": string
  "account.confirm.error.OtherUser": string
  "account.confirm.error.EmailTaken": string
  "account.password.heading": string
  "account.password.current": string
  "account.password.new": string
  "account.password.change": string
  "account.password.set.lead": string
  "account.password.set": string
  "account.notice.password-changed": string
  "account.notice.password-set": string
  "account.passkeys.heading": string
  "account.passkeys.none": string
  /** A passkey without a name. */
  "account.passkeys.unnamed": string
  /** `{date}` is when it was added. */
  "account.passkeys.added": string
  /** The label of a passkey's name field; `{name}` is its current name. */
  "account.passkeys.name": string
  "account.passkeys.rename": string
  /** `{name}` is the passkey's name. */
  "account.passkeys.remove": string
  "account.passkeys.add": string
  /** Shown without JavaScript, which adding a passkey needs. */
  "account.passkeys.nojs": string
  "account.passkeys.working": string
  "account.passkeys.failed": string
  /** Link to the step-up before adding a passkey. */
  "account.passkeys.confirm": string
  "account.notice.passkey-renamed": string
  "account.notice.passkey-removed": string
  "account.notice.passkey-added": string
  "account.twofactor.heading": string
  "account.twofactor.off": string
  /** `{count}` is how many recovery codes are left. */
  "account.twofactor.totp": string
  /** `{count}` is how many recovery codes are left. */
  "account.twofactor.email": string
  "account.twofactor.enable": string
  "account.twofactor.manage": string
  "account.accounts.heading": string
  "account.accounts.none": string
  /** `{provider}` is the provider's name. */
  "account.accounts.unlink": string
  /** `{provider}` is the provider's name. */
  "account.accounts.link": string
  "account.notice.unlinked": string
  "account.sessions.heading": string
  "account.sessions.current": string
  /** A session whose browser is not known. */
  "account.sessions.unknown": string
  /** `{date}` is when the session started. */
  "account.sessions.started": string
  "account.sessions.revoke": string
  "account.sessions.others": string
  /** JWT sessions with revocation: nothing to list, but the others can end. */
  "account.sessions.jwt": string
  /** JWT sessions without revocation. */
  "account.sessions.none": string
  "account.notice.session-revoked": string
  "account.notice.sessions-revoked": string
  "account.delete.heading": string
  "account.delete.lead": string
  "account.delete.confirm": string
  "account.delete.button": string
  /** `{host}` is the site's host. */
  "account.mail.change.subject": string
  "account.mail.change.lead": string
  "account.mail.change.button": string
  "account.mail.change.notice": string
  /** `{host}` is the site's host. */
  "account.mail.changed.subject": string
  "account.mail.changed.lead": string
  "account.mail.changed.button": string
  "account.mail.changed.notice": string
}

/** Its texts in every built-in language; a missing language or key is a compile error. */
export const accountPageMessages: Catalogues<AccountPageMessages> = {
  en: {
    "account.heading": "Your account",
    "account.signedInAs": "Signed in as {email}",
    "account.nav": "Sections",
    "account.stale": "Some changes ask you to confirm it’s you first.",
    "account.stale.link": "Confirm it’s you now",
    "account.back": "Back to the site",
    "account.signout": "Sign out",
    "account.error.Default": "Something went wrong. Please try again.",
    "account.error.NotFound": "That item no longer exists.",
    "account.error.LastSignInMethod": "That is your last way to sign in. Add another one first.",
    "account.error.Acting": "Not in a session acting on the user's behalf: this is the user's own to do.",
    "account.error.InvalidField": "One of the fields holds a value this site does not accept.",
    "account.error.InvalidImage": "The picture must be an https:// link.",
    "account.error.InvalidEmail": "Enter one valid email address.",
    "account.error.SameEmail": "That is already your email address.",
    "account.error.SendFailed": "The email could not be sent. Try again later.",
    "account.error.WrongPassword": "The current password is wrong.",
    "account.error.TooManyAttempts": "Too many attempts. Try again later.",
    "account.error.InvalidName": "A name must be 1 to 64 characters.",
    "account.error.ConfirmDelete": "Tick the box to confirm.",
    "account.profile.heading": "Profile",
    "account.profile.name": "Name",
    "account.profile.image": "Picture (link)",
    "account.profile.image.hint": "A link to an image on the web, starting with https://.",
    "account.profile.unset": "Not set",
    "account.profile.yes": "On",
    "account.profile.no": "Off",
    "account.profile.save": "Save profile",
    "account.notice.profile": "Your profile was saved.",
    "account.email.heading": "Email address",
    "account.email.current": "Your address is {email}.",
    "account.email.none": "Your account has no email address yet.",
    "account.email.label": "New email address",
    "account.email.hint": "We send a link to the new address. Your address changes when you open it.",
    "account.email.button": "Send a confirmation link",
    "account.notice.email-sent": "If that address can be used, a link is on its way to it. Check your inbox and open the link to finish the change.",
    "account.notice.email-changed": "Your email address was changed. Your other sessions were signed out.",
    "account.confirm.heading": "Confirm your new email address",
    "account.confirm.body": "Make {email} the email address of your account on {host}?",
    "account.confirm.button": "Change my email address",
    "account.confirm.error.InvalidLink": "This link is no longer valid: it may have expired or been used already. Ask for a new one on your account page.",
    "account.confirm.error.OtherUser": "You are signed in as someone else. Sign out, then open the link again.",
    "account.confirm.error.EmailTaken": "This address now belongs to another account, so it cannot be yours.",
    "account.password.heading": "Password",
    "account.password.current": "Current password",
    "account.password.new": "New password",
    "account.password.change": "Change password",
    "account.password.set.lead": "You have no password yet. Set one to sign in with your email address and a password.",
    "account.password.set": "Set password",
    "account.notice.password-changed": "Your password was changed. Your other sessions were signed out.",
    "account.notice.password-set": "Your password was set.",
    "account.passkeys.heading": "Passkeys",
    "account.passkeys.none": "You have no passkeys yet.",
    "account.passkeys.unnamed": "Passkey",
    "account.passkeys.added": "Added {date}",
    "account.passkeys.name": "New name for {name}",
    "account.passkeys.rename": "Rename",
    "account.passkeys.remove": "Remove {name}",
    "account.passkeys.add": "Add a passkey",
    "account.passkeys.nojs": "Adding a passkey needs JavaScript and a browser that supports passkeys.",
    "account.passkeys.working": "Waiting for your passkey…",
    "account.passkeys.failed": "That didn’t work. Try again.",
    "account.passkeys.confirm": "Confirm it’s you to add a passkey",
    "account.notice.passkey-renamed": "The passkey was renamed.",
    "account.notice.passkey-removed": "The passkey was removed.",
    "account.notice.passkey-added": "The passkey was added.",
    "account.twofactor.heading": "Two-factor sign-in",
    "account.twofactor.off": "Off. Add a second step to your sign-ins with an authenticator app.",
    "account.twofactor.totp": "On, with an authenticator app. Recovery codes left: {count}.",
    "account.twofactor.email": "On, with codes by email. Recovery codes left: {count}.",
    "account.twofactor.enable": "Turn on two-factor sign-in",
    "account.twofactor.manage": "New recovery codes, or turn it off",
    "account.accounts.heading": "Linked accounts",
    "account.accounts.none": "No accounts are linked.",
    "account.accounts.unlink": "Unlink {provider}",
    "account.accounts.link": "Link {provider}",
    "account.notice.unlinked": "The account was unlinked.",
    "account.sessions.heading": "Sessions",
    "account.sessions.current": "This browser",
    "account.sessions.unknown": "Unknown browser",
    "account.sessions.started": "Signed in {date}",
    "account.sessions.revoke": "Sign out this session",
    "account.sessions.others": "Sign out everywhere else",
    "account.sessions.jwt": "Sessions are not stored on this site, so they cannot be listed. You can still sign out everywhere else.",
    "account.sessions.none": "Sessions are not stored on this site, so they cannot be listed or signed out here. Each ends when it expires or when you sign out in its browser.",
    "account.notice.session-revoked": "The session was signed out.",
    "account.notice.sessions-revoked": "You were signed out everywhere else.",
    "account.delete.heading": "Delete account",
    "account.delete.lead": "This deletes your account and everything stored with it. It cannot be undone.",
    "account.delete.confirm": "I understand that my account will be deleted for good.",
    "account.delete.button": "Delete my account",
    "account.mail.change.subject": "Confirm your new email address for {host}",
    "account.mail.change.lead": "Open this link to make this address the email address of your account. It works for one hour.",
    "account.mail.change.button": "Confirm this address",
    "account.mail.change.notice": "If you did not ask for this, ignore this email: nothing changes.",
    "account.mail.changed.subject": "Your email address on {host} was changed",
    "account.mail.changed.lead": "The email address of your account was just changed to another one. If that was not you, sign in and secure your account, or contact the site.",
    "account.mail.changed.button": "Open your account",
    "account.mail.changed.notice": "This address no longer receives the account’s emails.",
  },
  de: {
    "account.heading": "Ihr Konto",
    "account.signedInAs": "Angemeldet als {email}",
    "account.nav": "Bereiche",
    "account.stale": "Bei manchen Änderungen müssen Sie zuerst bestätigen, dass Sie es sind.",
    "account.stale.link": "Jetzt bestätigen",
    "account.back": "Zurück zur Website",
    "account.signout": "Abmelden",
    "account.error.Default": "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.",
    "account.error.NotFound": "Dieser Eintrag existiert nicht mehr.",
    "account.error.LastSignInMethod": "Das ist Ihre letzte Möglichkeit, sich anzumelden. Fügen Sie zuerst eine andere hinzu.",
    "account.error.Acting": "Nicht in einer Sitzung, die im Namen des Benutzers handelt: Das kann nur der Benutzer selbst.",
    "account.error.InvalidField": "Eines der Felder enthält einen Wert, den diese Website nicht annimmt.",
    "account.error.InvalidImage": "Das Bild muss ein https://-Link sein.",
    "account.error.InvalidEmail": "Bitte geben Sie genau eine gültige E-Mail-Adresse ein.",
    "account.error.SameEmail": "Das ist bereits Ihre E-Mail-Adresse.",
    "account.error.SendFailed": "Die E-Mail konnte nicht gesendet werden. Versuchen Sie es später erneut.",
    "account.error.WrongPassword": "Das aktuelle Passwort ist falsch.",
    "account.error.TooManyAttempts": "Zu viele Versuche. Versuchen Sie es später erneut.",
    "account.error.InvalidName": "Ein Name muss 1 bis 64 Zeichen lang sein.",
    "account.error.ConfirmDelete": "Setzen Sie zur Bestätigung das Häkchen.",
    "account.profile.heading": "Profil",
    "account.profile.name": "Anzeigename",
    "account.profile.image": "Bild (Link)",
    "account.profile.image.hint": "Ein Link zu einem Bild im Web, beginnend mit https://.",
    "account.profile.unset": "Nicht festgelegt",
    "account.profile.yes": "An",
    "account.profile.no": "Aus",
    "account.profile.save": "Profil speichern",
    "account.notice.profile": "Ihr Profil wurde gespeichert.",
    "account.email.heading": "E-Mail-Adresse",
    "account.email.current": "Ihre Adresse ist {email}.",
    "account.email.none": "Ihr Konto hat noch keine E-Mail-Adresse.",
    "account.email.label": "Neue E-Mail-Adresse",
    "account.email.hint": "Wir senden einen Link an die neue Adresse. Ihre Adresse ändert sich, wenn Sie ihn öffnen.",
    "account.email.button": "Bestätigungslink senden",
    "account.notice.email-sent": "Wenn diese Adresse verwendet werden kann, ist ein Link unterwegs. Sehen Sie in Ihrem Posteingang nach und öffnen Sie den Link, um die Änderung abzuschließen.",
    "account.notice.email-changed": "Ihre E-Mail-Adresse wurde geändert. Ihre anderen Sitzungen wurden abgemeldet.",
    "account.confirm.heading": "Neue E-Mail-Adresse bestätigen",
    "account.confirm.body": "{email} als E-Mail-Adresse Ihres Kontos auf {host} festlegen?",
    "account.confirm.button": "E-Mail-Adresse ändern",
    "account.confirm.error.InvalidLink": "Dieser Link ist nicht mehr gültig: Er ist vielleicht abgelaufen oder wurde schon verwendet. Fordern Sie auf Ihrer Kontoseite einen neuen an.",
    "account.confirm.error.OtherUser": "Sie sind als jemand anderes angemeldet. Melden Sie sich ab und öffnen Sie den Link erneut.",
    "account.confirm.error.EmailTaken": "Diese Adresse gehört inzwischen zu einem anderen Konto.",
    "account.password.heading": "Passwort",
    "account.password.current": "Aktuelles Passwort",
    "account.password.new": "Neues Passwort",
    "account.password.change": "Passwort ändern",
    "account.password.set.lead": "Sie haben noch kein Passwort. Legen Sie eines fest, um sich mit E-Mail-Adresse und Passwort anzumelden.",
    "account.password.set": "Passwort festlegen",
    "account.notice.password-changed": "Ihr Passwort wurde geändert. Ihre anderen Sitzungen wurden abgemeldet.",
    "account.notice.password-set": "Ihr Passwort wurde festgelegt.",
    "account.passkeys.heading": "Ihre Passkeys",
    "account.passkeys.none": "Sie haben noch keine Passkeys.",
    "account.passkeys.unnamed": "Passkey ohne Namen",
    "account.passkeys.added": "Hinzugefügt am {date}",
    "account.passkeys.name": "Neuer Name für {name}",
    "account.passkeys.rename": "Umbenennen",
    "account.passkeys.remove": "{name} entfernen",
    "account.passkeys.add": "Passkey hinzufügen",
    "account.passkeys.nojs": "Zum Hinzufügen eines Passkeys werden JavaScript und ein Browser mit Passkey-Unterstützung benötigt.",
    "account.passkeys.working": "Warten auf Ihren Passkey …",
    "account.passkeys.failed": "Das hat nicht geklappt. Versuchen Sie es erneut.",
    "account.passkeys.confirm": "Bestätigen Sie, dass Sie es sind, um einen Passkey hinzuzufügen",
    "account.notice.passkey-renamed": "Der Passkey wurde umbenannt.",
    "account.notice.passkey-removed": "Der Passkey wurde entfernt.",
    "account.notice.passkey-added": "Der Passkey wurde hinzugefügt.",
    "account.twofactor.heading": "Zwei-Faktor-Anmeldung",
    "account.twofactor.off": "Aus. Fügen Sie Ihren Anmeldungen mit einer Authenticator-App einen zweiten Schritt hinzu.",
    "account.twofactor.totp": "An, mit einer Authenticator-App. Verbleibende Wiederherstellungscodes: {count}.",
    "account.twofactor.email": "An, mit Codes per E-Mail. Verbleibende Wiederherstellungscodes: {count}.",
    "account.twofactor.enable": "Zwei-Faktor-Anmeldung einschalten",
    "account.twofactor.manage": "Neue Wiederherstellungscodes oder ausschalten",
    "account.accounts.heading": "Verknüpfte Konten",
    "account.accounts.none": "Es sind keine Konten verknüpft.",
    "account.accounts.unlink": "{provider} trennen",
    "account.accounts.link": "{provider} verknüpfen",
    "account.notice.unlinked": "Das Konto wurde getrennt.",
    "account.sessions.heading": "Sitzungen",
    "account.sessions.current": "Dieser Browser",
    "account.sessions.unknown": "Unbekannter Browser",
    "account.sessions.started": "Angemeldet am {date}",
    "account.sessions.revoke": "Diese Sitzung abmelden",
    "account.sessions.others": "Überall sonst abmelden",
    "account.sessions.jwt": "Sitzungen werden auf dieser Website nicht gespeichert und können daher nicht aufgelistet werden. Sie können sich aber überall sonst abmelden.",
    "account.sessions.none": "Sitzungen werden auf dieser Website nicht gespeichert und können hier weder aufgelistet noch abgemeldet werden. Jede endet, wenn sie abläuft oder Sie sich in ihrem Browser abmelden.",
    "account.notice.session-revoked": "Die Sitzung wurde abgemeldet.",
    "account.notice.sessions-revoked": "Sie wurden überall sonst abgemeldet.",
    "account.delete.heading": "Konto löschen",
    "account.delete.lead": "Damit werden Ihr Konto und alles, was dazu gespeichert ist, gelöscht. Das lässt sich nicht rückgängig machen.",
    "account.delete.confirm": "Mir ist klar, dass mein Konto endgültig gelöscht wird.",
    "account.delete.button": "Mein Konto löschen",
    "account.mail.change.subject": "Bestätigen Sie Ihre neue E-Mail-Adresse für {host}",
    "account.mail.change.lead": "Öffnen Sie diesen Link, um diese Adresse zur E-Mail-Adresse Ihres Kontos zu machen. Er ist eine Stunde lang gültig.",
    "account.mail.change.button": "Adresse bestätigen",
    "account.mail.change.notice": "Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Es ändert sich nichts.",
    "account.mail.changed.subject": "Ihre E-Mail-Adresse auf {host} wurde geändert",
    "account.mail.changed.lead": "Die E-Mail-Adresse Ihres Kontos wurde soeben in eine andere geändert. Wenn Sie das nicht waren, melden Sie sich an und sichern Sie Ihr Konto, oder wenden Sie sich an die Website.",
    "account.mail.changed.button": "Konto öffnen",
    "account.mail.changed.notice": "Diese Adresse erhält keine E-Mails des Kontos mehr.",
  },
  es: {
    "account.heading": "Tu cuenta",
    "account.signedInAs": "Has iniciado sesión como {email}",
    "account.nav": "Secciones",
    "account.stale": "Algunos cambios te pedirán primero que confirmes tu identidad.",
    "account.stale.link": "Confirmar ahora",
    "account.back": "Volver al sitio",
    "account.signout": "Cerrar sesión",
    "account.error.Default": "Algo salió mal. Inténtalo de nuevo.",
    "account.error.NotFound": "Ese elemento ya no existe.",
    "account.error.LastSignInMethod": "Es tu última forma de iniciar sesión. Añade otra primero.",
    "account.error.Acting": "No en una sesión que actúa en nombre del usuario: solo el propio usuario puede hacerlo.",
    "account.error.InvalidField": "Uno de los campos tiene un valor que este sitio no acepta.",
    "account.error.InvalidImage": "La imagen debe ser un enlace https://.",
    "account.error.InvalidEmail": "Escribe una sola dirección de correo electrónico válida.",
    "account.error.SameEmail": "Esa ya es tu dirección de correo electrónico.",
    "account.error.SendFailed": "No se pudo enviar el correo. Inténtalo más tarde.",
    "account.error.WrongPassword": "La contraseña actual no es correcta.",
    "account.error.TooManyAttempts": "Demasiados intentos. Inténtalo más tarde.",
    "account.error.InvalidName": "Un nombre debe tener entre 1 y 64 caracteres.",
    "account.error.ConfirmDelete": "Marca la casilla para confirmar.",
    "account.profile.heading": "Perfil",
    "account.profile.name": "Nombre",
    "account.profile.image": "Imagen (enlace)",
    "account.profile.image.hint": "Un enlace a una imagen en la web, que empiece por https://.",
    "account.profile.unset": "Sin definir",
    "account.profile.yes": "Activado",
    "account.profile.no": "Desactivado",
    "account.profile.save": "Guardar perfil",
    "account.notice.profile": "Se guardó tu perfil.",
    "account.email.heading": "Correo electrónico",
    "account.email.current": "Tu dirección es {email}.",
    "account.email.none": "Tu cuenta aún no tiene dirección de correo.",
    "account.email.label": "Nueva dirección de correo",
    "account.email.hint": "Enviamos un enlace a la nueva dirección. Tu dirección cambia cuando lo abres.",
    "account.email.button": "Enviar enlace de confirmación",
    "account.notice.email-sent": "Si esa dirección se puede usar, le hemos enviado un enlace. Revisa tu bandeja de entrada y ábrelo para terminar el cambio.",
    "account.notice.email-changed": "Se cambió tu dirección de correo. Se cerraron tus otras sesiones.",
    "account.confirm.heading": "Confirma tu nueva dirección de correo",
    "account.confirm.body": "¿Usar {email} como dirección de correo de tu cuenta en {host}?",
    "account.confirm.button": "Cambiar mi dirección de correo",
    "account.confirm.error.InvalidLink": "Este enlace ya no es válido: puede que haya caducado o ya se haya usado. Pide otro en la página de tu cuenta.",
    "account.confirm.error.OtherUser": "Has iniciado sesión como otra persona. Cierra sesión y vuelve a abrir el enlace.",
    "account.confirm.error.EmailTaken": "Esta dirección ahora pertenece a otra cuenta.",
    "account.password.heading": "Contraseña",
    "account.password.current": "Contraseña actual",
    "account.password.new": "Nueva contraseña",
    "account.password.change": "Cambiar contraseña",
    "account.password.set.lead": "Aún no tienes contraseña. Crea una para iniciar sesión con tu correo y una contraseña.",
    "account.password.set": "Crear contraseña",
    "account.notice.password-changed": "Se cambió tu contraseña. Se cerraron tus otras sesiones.",
    "account.notice.password-set": "Se creó tu contraseña.",
    "account.passkeys.heading": "Llaves de acceso",
    "account.passkeys.none": "Aún no tienes llaves de acceso.",
    "account.passkeys.unnamed": "Llave de acceso",
    "account.passkeys.added": "Añadida el {date}",
    "account.passkeys.name": "Nuevo nombre para {name}",
    "account.passkeys.rename": "Cambiar nombre",
    "account.passkeys.remove": "Quitar {name}",
    "account.passkeys.add": "Añadir una llave de acceso",
    "account.passkeys.nojs": "Para añadir una llave de acceso se necesita JavaScript y un navegador compatible.",
    "account.passkeys.working": "Esperando tu llave de acceso…",
    "account.passkeys.failed": "No funcionó. Inténtalo de nuevo.",
    "account.passkeys.confirm": "Confirma tu identidad para añadir una llave de acceso",
    "account.notice.passkey-renamed": "Se cambió el nombre de la llave de acceso.",
    "account.notice.passkey-removed": "Se quitó la llave de acceso.",
    "account.notice.passkey-added": "Se añadió la llave de acceso.",
    "account.twofactor.heading": "Inicio de sesión en dos pasos",
    "account.twofactor.off": "Desactivado. Añade un segundo paso a tus inicios de sesión con una app de autenticación.",
    "account.twofactor.totp": "Activado, con una app de autenticación. Códigos de recuperación restantes: {count}.",
    "account.twofactor.email": "Activado, con códigos por correo. Códigos de recuperación restantes: {count}.",
    "account.twofactor.enable": "Activar el inicio de sesión en dos pasos",
    "account.twofactor.manage": "Nuevos códigos de recuperación o desactivarlo",
    "account.accounts.heading": "Cuentas vinculadas",
    "account.accounts.none": "No hay cuentas vinculadas.",
    "account.accounts.unlink": "Desvincular {provider}",
    "account.accounts.link": "Vincular {provider}",
    "account.notice.unlinked": "Se desvinculó la cuenta.",
    "account.sessions.heading": "Sesiones",
    "account.sessions.current": "Este navegador",
    "account.sessions.unknown": "Navegador desconocido",
    "account.sessions.started": "Sesión iniciada el {date}",
    "account.sessions.revoke": "Cerrar esta sesión",
    "account.sessions.others": "Cerrar sesión en todos los demás sitios",
    "account.sessions.jwt": "Las sesiones no se guardan en este sitio, así que no se pueden listar. Aun así puedes cerrar sesión en todos los demás sitios.",
    "account.sessions.none": "Las sesiones no se guardan en este sitio, así que aquí no se pueden listar ni cerrar. Cada una termina al caducar o al cerrar sesión en su navegador.",
    "account.notice.session-revoked": "Se cerró la sesión.",
    "account.notice.sessions-revoked": "Se cerró tu sesión en todos los demás sitios.",
    "account.delete.heading": "Eliminar cuenta",
    "account.delete.lead": "Esto elimina tu cuenta y todo lo guardado con ella. No se puede deshacer.",
    "account.delete.confirm": "Entiendo que mi cuenta se eliminará para siempre.",
    "account.delete.button": "Eliminar mi cuenta",
    "account.mail.change.subject": "Confirma tu nueva dirección de correo para {host}",
    "account.mail.change.lead": "Abre este enlace para que esta sea la dirección de correo de tu cuenta. Funciona durante una hora.",
    "account.mail.change.button": "Confirmar esta dirección",
    "account.mail.change.notice": "Si no lo pediste, ignora este correo: no cambiará nada.",
    "account.mail.changed.subject": "Se cambió tu dirección de correo en {host}",
    "account.mail.changed.lead": "La dirección de correo de tu cuenta se acaba de cambiar por otra. Si no fuiste tú, inicia sesión y protege tu cuenta, o contacta con el sitio.",
    "account.mail.changed.button": "Abrir tu cuenta",
    "account.mail.changed.notice": "Esta dirección ya no recibe los correos de la cuenta.",
  },
  fr: {
    "account.heading": "Votre compte",
    "account.signedInAs": "Connecté en tant que {email}",
    "account.nav": "Rubriques",
    "account.stale": "Certaines modifications vous demanderont d’abord de confirmer votre identité.",
    "account.stale.link": "Confirmer maintenant",
    "account.back": "Retour au site",
    "account.signout": "Se déconnecter",
    "account.error.Default": "Une erreur s’est produite. Veuillez réessayer.",
    "account.error.NotFound": "Cet élément n’existe plus.",
    "account.error.LastSignInMethod": "C’est votre dernier moyen de vous connecter. Ajoutez-en d’abord un autre.",
    "account.error.Acting": "Pas dans une session qui agit au nom de l’utilisateur : seul l’utilisateur peut le faire.",
    "account.error.InvalidField": "Un des champs contient une valeur que ce site n’accepte pas.",
    "account.error.InvalidImage": "L’image doit être un lien https://.",
    "account.error.InvalidEmail": "Saisissez une seule adresse e-mail valide.",
    "account.error.SameEmail": "C’est déjà votre adresse e-mail.",
    "account.error.SendFailed": "L’e-mail n’a pas pu être envoyé. Réessayez plus tard.",
    "account.error.WrongPassword": "Le mot de passe actuel est incorrect.",
    "account.error.TooManyAttempts": "Trop de tentatives. Réessayez plus tard.",
    "account.error.InvalidName": "Un nom doit compter de 1 à 64 caractères.",
    "account.error.ConfirmDelete": "Cochez la case pour confirmer.",
    "account.profile.heading": "Profil",
    "account.profile.name": "Nom",
    "account.profile.image": "Image (lien)",
    "account.profile.image.hint": "Un lien vers une image sur le web, commençant par https://.",
    "account.profile.unset": "Non défini",
    "account.profile.yes": "Activé",
    "account.profile.no": "Désactivé",
    "account.profile.save": "Enregistrer le profil",
    "account.notice.profile": "Votre profil a été enregistré.",
    "account.email.heading": "Adresse e-mail",
    "account.email.current": "Votre adresse est {email}.",
    "account.email.none": "Votre compte n’a pas encore d’adresse e-mail.",
    "account.email.label": "Nouvelle adresse e-mail",
    "account.email.hint": "Nous envoyons un lien à la nouvelle adresse. Votre adresse change quand vous l’ouvrez.",
    "account.email.button": "Envoyer un lien de confirmation",
    "account.notice.email-sent": "Si cette adresse peut être utilisée, un lien y a été envoyé. Consultez votre boîte de réception et ouvrez le lien pour terminer le changement.",
    "account.notice.email-changed": "Votre adresse e-mail a été modifiée. Vos autres sessions ont été déconnectées.",
    "account.confirm.heading": "Confirmez votre nouvelle adresse e-mail",
    "account.confirm.body": "Utiliser {email} comme adresse e-mail de votre compte sur {host} ?",
    "account.confirm.button": "Changer mon adresse e-mail",
    "account.confirm.error.InvalidLink": "Ce lien n’est plus valide : il a peut-être expiré ou déjà été utilisé. Demandez-en un nouveau sur la page de votre compte.",
    "account.confirm.error.OtherUser": "Vous êtes connecté en tant qu’une autre personne. Déconnectez-vous, puis rouvrez le lien.",
    "account.confirm.error.EmailTaken": "Cette adresse appartient désormais à un autre compte.",
    "account.password.heading": "Mot de passe",
    "account.password.current": "Mot de passe actuel",
    "account.password.new": "Nouveau mot de passe",
    "account.password.change": "Changer le mot de passe",
    "account.password.set.lead": "Vous n’avez pas encore de mot de passe. Définissez-en un pour vous connecter avec votre adresse e-mail et un mot de passe.",
    "account.password.set": "Définir le mot de passe",
    "account.notice.password-changed": "Votre mot de passe a été modifié. Vos autres sessions ont été déconnectées.",
    "account.notice.password-set": "Votre mot de passe a été défini.",
    "account.passkeys.heading": "Clés d’accès",
    "account.passkeys.none": "Vous n’avez pas encore de clé d’accès.",
    "account.passkeys.unnamed": "Clé d’accès",
    "account.passkeys.added": "Ajoutée le {date}",
    "account.passkeys.name": "Nouveau nom pour {name}",
    "account.passkeys.rename": "Renommer",
    "account.passkeys.remove": "Supprimer {name}",
    "account.passkeys.add": "Ajouter une clé d’accès",
    "account.passkeys.nojs": "L’ajout d’une clé d’accès nécessite JavaScript et un navigateur compatible.",
    "account.passkeys.working": "En attente de votre clé d’accès…",
    "account.passkeys.failed": "Cela n’a pas fonctionné. Réessayez.",
    "account.passkeys.confirm": "Confirmez votre identité pour ajouter une clé d’accès",
    "account.notice.passkey-renamed": "La clé d’accès a été renommée.",
    "account.notice.passkey-removed": "La clé d’accès a été supprimée.",
    "account.notice.passkey-added": "La clé d’accès a été ajoutée.",
    "account.twofactor.heading": "Connexion à deux facteurs",
    "account.twofactor.off": "Désactivée. Ajoutez une seconde étape à vos connexions avec une application d’authentification.",
    "account.twofactor.totp": "Activée, avec une application d’authentification. Codes de récupération restants : {count}.",
    "account.twofactor.email": "Activée, avec des codes par e-mail. Codes de récupération restants : {count}.",
    "account.twofactor.enable": "Activer la connexion à deux facteurs",
    "account.twofactor.manage": "Nouveaux codes de récupération, ou la désactiver",
    "account.accounts.heading": "Comptes associés",
    "account.accounts.none": "Aucun compte n’est associé.",
    "account.accounts.unlink": "Dissocier {provider}",
    "account.accounts.link": "Associer {provider}",
    "account.notice.unlinked": "Le compte a été dissocié.",
    "account.sessions.heading": "Sessions ouvertes",
    "account.sessions.current": "Ce navigateur",
    "account.sessions.unknown": "Navigateur inconnu",
    "account.sessions.started": "Connecté le {date}",
    "account.sessions.revoke": "Déconnecter cette session",
    "account.sessions.others": "Se déconnecter partout ailleurs",
    "account.sessions.jwt": "Les sessions ne sont pas enregistrées sur ce site : elles ne peuvent pas être listées. Vous pouvez quand même vous déconnecter partout ailleurs.",
    "account.sessions.none": "Les sessions ne sont pas enregistrées sur ce site : elles ne peuvent être ni listées ni déconnectées ici. Chacune prend fin à son expiration ou quand vous vous déconnectez dans son navigateur.",
    "account.notice.session-revoked": "La session a été déconnectée.",
    "account.notice.sessions-revoked": "Vous avez été déconnecté partout ailleurs.",
    "account.delete.heading": "Supprimer le compte",
    "account.delete.lead": "Cela supprime votre compte et tout ce qui y est enregistré. C’est irréversible.",
    "account.delete.confirm": "Je comprends que mon compte sera définitivement supprimé.",
    "account.delete.button": "Supprimer mon compte",
    "account.mail.change.subject": "Confirmez votre nouvelle adresse e-mail pour {host}",
    "account.mail.change.lead": "Ouvrez ce lien pour faire de cette adresse l’adresse e-mail de votre compte. Il est valable une heure.",
    "account.mail.change.button": "Confirmer cette adresse",
    "account.mail.change.notice": "Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail : rien ne changera.",
    "account.mail.changed.subject": "Votre adresse e-mail sur {host} a été modifiée",
    "account.mail.changed.lead": "L’adresse e-mail de votre compte vient d’être remplacée par une autre. Si ce n’était pas vous, connectez-vous et sécurisez votre compte, ou contactez le site.",
    "account.mail.changed.button": "Ouvrir votre compte",
    "account.mail.changed.notice": "Cette adresse ne reçoit plus les e-mails du compte.",
  },
  ja: {
    "account.heading": "アカウント",
    "account.signedInAs": "{email} としてログイン中",
    "account.nav": "セクション",
    "account.stale": "一部の変更では、先に本人確認が必要です。",
    "account.stale.link": "今すぐ本人確認する",
    "account.back": "サイトに戻る",
    "account.signout": "ログアウト",
    "account.error.Default": "問題が発生しました。もう一度お試しください。",
    "account.error.NotFound": "その項目はもう存在しません。",
    "account.error.LastSignInMethod": "これは最後のログイン方法です。先に別の方法を追加してください。",
    "account.error.Acting": "ユーザーの代理で操作しているセッションではできません。ユーザー本人のみが行えます。",
    "account.error.InvalidField": "いずれかの項目に、このサイトで使えない値が入っています。",
    "account.error.InvalidImage": "画像は https:// のリンクにしてください。",
    "account.error.InvalidEmail": "有効なメールアドレスを1つ入力してください。",
    "account.error.SameEmail": "それはすでにあなたのメールアドレスです。",
    "account.error.SendFailed": "メールを送信できませんでした。後でもう一度お試しください。",
    "account.error.WrongPassword": "現在のパスワードが正しくありません。",
    "account.error.TooManyAttempts": "試行回数が多すぎます。後でもう一度お試しください。",
    "account.error.InvalidName": "名前は1〜64文字にしてください。",
    "account.error.ConfirmDelete": "確認のためにチェックを入れてください。",
    "account.profile.heading": "プロフィール",
    "account.profile.name": "名前",
    "account.profile.image": "画像（リンク）",
    "account.profile.image.hint": "https:// で始まる、ウェブ上の画像へのリンク。",
    "account.profile.unset": "未設定",
    "account.profile.yes": "オン",
    "account.profile.no": "オフ",
    "account.profile.save": "プロフィールを保存",
    "account.notice.profile": "プロフィールを保存しました。",
    "account.email.heading": "メールアドレス",
    "account.email.current": "現在のアドレスは {email} です。",
    "account.email.none": "このアカウントにはまだメールアドレスがありません。",
    "account.email.label": "新しいメールアドレス",
    "account.email.hint": "新しいアドレスにリンクを送ります。リンクを開くとアドレスが変わります。",
    "account.email.button": "確認リンクを送信",
    "account.notice.email-sent": "そのアドレスが使える場合は、リンクを送信しました。受信トレイを確認し、リンクを開いて変更を完了してください。",
    "account.notice.email-changed": "メールアドレスを変更しました。他のセッションはログアウトされました。",
    "account.confirm.heading": "新しいメールアドレスの確認",
    "account.confirm.body": "{host} のアカウントのメールアドレスを {email} にしますか？",
    "account.confirm.button": "メールアドレスを変更",
    "account.confirm.error.InvalidLink": "このリンクは無効です。期限切れか、すでに使われています。アカウントページから新しいリンクを依頼してください。",
    "account.confirm.error.OtherUser": "別のユーザーとしてログインしています。ログアウトしてから、もう一度リンクを開いてください。",
    "account.confirm.error.EmailTaken": "このアドレスは現在、別のアカウントで使われています。",
    "account.password.heading": "パスワード",
    "account.password.current": "現在のパスワード",
    "account.password.new": "新しいパスワード",
    "account.password.change": "パスワードを変更",
    "account.password.set.lead": "まだパスワードがありません。メールアドレスとパスワードでログインするには設定してください。",
    "account.password.set": "パスワードを設定",
    "account.notice.password-changed": "パスワードを変更しました。他のセッションはログアウトされました。",
    "account.notice.password-set": "パスワードを設定しました。",
    "account.passkeys.heading": "パスキー",
    "account.passkeys.none": "パスキーはまだありません。",
    "account.passkeys.unnamed": "パスキー",
    "account.passkeys.added": "{date} に追加",
    "account.passkeys.name": "{name} の新しい名前",
    "account.passkeys.rename": "名前を変更",
    "account.passkeys.remove": "{name} を削除",
    "account.passkeys.add": "パスキーを追加",
    "account.passkeys.nojs": "パスキーの追加には JavaScript とパスキー対応のブラウザーが必要です。",
    "account.passkeys.working": "パスキーを待っています…",
    "account.passkeys.failed": "うまくいきませんでした。もう一度お試しください。",
    "account.passkeys.confirm": "パスキーを追加するには本人確認をしてください",
    "account.notice.passkey-renamed": "パスキーの名前を変更しました。",
    "account.notice.passkey-removed": "パスキーを削除しました。",
    "account.notice.passkey-added": "パスキーを追加しました。",
    "account.twofactor.heading": "2段階認証",
    "account.twofactor.off": "オフです。認証アプリでログインに2つ目のステップを追加できます。",
    "account.twofactor.totp": "オン（認証アプリ）。残りのリカバリーコード：{count}",
    "account.twofactor.email": "オン（メールのコード）。残りのリカバリーコード：{count}",
    "account.twofactor.enable": "2段階認証をオンにする",
    "account.twofactor.manage": "新しいリカバリーコード、またはオフにする",
    "account.accounts.heading": "連携アカウント",
    "account.accounts.none": "連携しているアカウントはありません。",
    "account.accounts.unlink": "{provider} の連携を解除",
    "account.accounts.link": "{provider} と連携",
    "account.notice.unlinked": "アカウントの連携を解除しました。",
    "account.sessions.heading": "セッション",
    "account.sessions.current": "このブラウザー",
    "account.sessions.unknown": "不明なブラウザー",
    "account.sessions.started": "{date} にログイン",
    "account.sessions.revoke": "このセッションをログアウト",
    "account.sessions.others": "他のすべての場所からログアウト",
    "account.sessions.jwt": "このサイトではセッションを保存していないため、一覧表示できません。他のすべての場所からのログアウトは可能です。",
    "account.sessions.none": "このサイトではセッションを保存していないため、ここで一覧表示やログアウトはできません。各セッションは期限切れになるか、そのブラウザーでログアウトすると終了します。",
    "account.notice.session-revoked": "セッションをログアウトしました。",
    "account.notice.sessions-revoked": "他のすべての場所からログアウトしました。",
    "account.delete.heading": "アカウントの削除",
    "account.delete.lead": "アカウントと、それに保存されているすべてのデータが削除されます。元に戻すことはできません。",
    "account.delete.confirm": "アカウントが完全に削除されることを理解しました。",
    "account.delete.button": "アカウントを削除",
    "account.mail.change.subject": "{host} の新しいメールアドレスの確認",
    "account.mail.change.lead": "このリンクを開くと、このアドレスがアカウントのメールアドレスになります。有効期限は1時間です。",
    "account.mail.change.button": "このアドレスを確認",
    "account.mail.change.notice": "心当たりがない場合は、このメールを無視してください。何も変更されません。",
    "account.mail.changed.subject": "{host} のメールアドレスが変更されました",
    "account.mail.changed.lead": "アカウントのメールアドレスが別のアドレスに変更されました。心当たりがない場合は、ログインしてアカウントを保護するか、サイトに連絡してください。",
    "account.mail.changed.button": "アカウントを開く",
    "account.mail.changed.notice": "このアドレスには今後、アカウントのメールは届きません。",
  },
}
