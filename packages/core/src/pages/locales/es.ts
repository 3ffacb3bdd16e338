/**
 * Español (tuteo, como la mayoría de los servicios web).
 *
 * @module
 */
import type { CoreMessages } from "../messages.js"

export const es: CoreMessages = {
  "signin.heading": "Iniciar sesión",
  "signin.with": "Iniciar sesión con {provider}",
  "signin.or": "o",
  "signin.email.label": "Correo electrónico",
  "signin.email.placeholder": "tu@ejemplo.com",
  "signin.none": "Este sitio no tiene configurado ningún método para iniciar sesión.",
  "signin.error.CredentialsSignin": "No hemos podido iniciar tu sesión con esos datos. Revísalos e inténtalo de nuevo.",
  "signin.error.OAuthAccountNotLinked":
    "Ya existe una cuenta con este correo electrónico. Inicia sesión como lo hiciste la primera vez, para que sepamos que eres tú.",
  "signin.error.OAuthCallbackError": "El servicio de inicio de sesión ha informado de un problema. Inténtalo de nuevo o elige otro método.",
  "signin.error.OAuthSignInError": "No se ha podido iniciar sesión con ese servicio. Inténtalo de nuevo o elige otro método.",
  "signin.error.InvalidCheck":
    "No hemos podido confirmar este inicio de sesión: quizá ha tardado demasiado o se empezó en otro navegador. Inténtalo de nuevo.",
  "signin.error.AccessDenied": "Esta cuenta no tiene permiso para iniciar sesión.",
  "signin.error.Verification":
    "Este enlace de inicio de sesión ya no es válido: puede que haya caducado o que ya se haya usado. Solicita uno nuevo.",
  "signin.error.MissingCSRF": "El formulario ha caducado o tu navegador ha bloqueado su cookie. Inténtalo de nuevo.",
  "signin.error.SessionRequired": "Inicia sesión para ver esa página.",
  "signin.error.EmailSignin": "No se ha podido enviar el correo de inicio de sesión. Revisa la dirección e inténtalo de nuevo.",
  "signin.error.AccountNotLinked": "Este método de inicio de sesión pertenece a otra cuenta. Usa el método con el que te registraste.",
  "signin.password.label": "Contraseña",
  "signin.error.Default": "Algo ha fallado al iniciar sesión. Inténtalo de nuevo.",
  "acting.banner": "Está viendo la aplicación como {user}, en nombre de {actor}, hasta las {time}.",
  "acting.stop": "Dejar de hacerlo y volver a su propia cuenta",
  "signout.heading": "Cerrar sesión",
  "signout.confirm": "¿Quieres cerrar la sesión ahora?",
  "signout.button": "Cerrar sesión",
  "signout.cancel": "Mantener la sesión",
  "verify.heading": "Revisa tu correo",
  "error.back": "Ir al inicio de sesión",
  "error.heading.Configuration": "Error del servidor",
  "error.heading.AccessDenied": "Acceso denegado",
  "error.heading.Verification": "No se puede iniciar sesión",
  "error.heading.Default": "Error",
  "error.Configuration":
    "El servidor no está bien configurado, así que ahora mismo no se puede iniciar sesión. Si administras este sitio, los registros del servidor indican el motivo.",
  "error.AccessDenied": "Esta cuenta no tiene permiso para iniciar sesión aquí.",
  "error.Verification":
    "Este enlace de inicio de sesión ya no es válido: puede que haya caducado o que ya se haya usado. Solicita uno nuevo.",
  "error.Default": "Algo ha salido mal. Inténtalo de nuevo.",
  "error.heading.Unavailable": "Vuelve a intentarlo en un momento",
  "error.Unavailable": "Esto no está disponible por un momento: ahora mismo no podemos acceder a nuestros datos. No se ha perdido nada y, si tenías la sesión iniciada, sigue iniciada. Vuelve a intentarlo en unos segundos.",
  "error.retry": "Reintentar",
  "confirm.heading": "Termina de iniciar sesión",
  "confirm.body": "¿Iniciar sesión en {host} como {email}?",
  "confirm.button": "Iniciar sesión",
  "confirm.why": "Este clic impide que los analizadores de seguridad, que abren los enlaces de los correos, usen el tuyo antes que tú.",
  "password.error.wrong-password": "Esa contraseña no es correcta.",
}
