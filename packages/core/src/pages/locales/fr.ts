/**
 * Français.
 *
 * @module
 */
import type { CoreMessages } from "../messages.js"

export const fr: CoreMessages = {
  "signin.heading": "Connexion",
  "signin.with": "Se connecter avec {provider}",
  "signin.or": "ou",
  "signin.email.label": "Adresse e-mail",
  "signin.email.placeholder": "vous@exemple.com",
  "signin.none": "Aucun moyen de connexion n’est configuré pour ce site.",
  "signin.error.CredentialsSignin": "Impossible de vous connecter avec ces informations. Vérifiez-les et réessayez.",
  "signin.error.OAuthAccountNotLinked":
    "Un compte existe déjà avec cette adresse e-mail. Connectez-vous comme la première fois, pour que nous sachions que c’est bien vous.",
  "signin.error.OAuthCallbackError":
    "Le service de connexion a signalé un problème. Réessayez ou choisissez un autre moyen de connexion.",
  "signin.error.OAuthSignInError":
    "Impossible de lancer la connexion avec ce service. Réessayez ou choisissez un autre moyen de connexion.",
  "signin.error.InvalidCheck":
    "Nous n’avons pas pu confirmer cette connexion : elle a peut-être pris trop de temps, ou été commencée dans un autre navigateur. Veuillez réessayer.",
  "signin.error.AccessDenied": "Ce compte n’est pas autorisé à se connecter.",
  "signin.error.Verification":
    "Ce lien de connexion n’est plus valide\u00a0: il a peut-être expiré ou déjà servi. Demandez-en un nouveau.",
  "signin.error.MissingCSRF": "Le formulaire a expiré, ou votre navigateur a bloqué son cookie. Veuillez réessayer.",
  "signin.error.SessionRequired": "Connectez-vous pour accéder à cette page.",
  "signin.error.EmailSignin": "L’e-mail de connexion n’a pas pu être envoyé. Vérifiez l’adresse et réessayez.",
  "signin.error.AccountNotLinked":
    "Ce moyen de connexion appartient à un autre compte. Utilisez celui que vous avez choisi à l’inscription.",
  "signin.password.label": "Mot de passe",
  "signin.error.Default": "Un problème est survenu pendant la connexion. Veuillez réessayer.",
  "acting.banner": "Vous voyez l’application en tant que {user}, pour le compte de {actor}, jusqu’à {time}.",
  "acting.stop": "Arrêter et revenir à votre propre compte",
  "signout.heading": "Déconnexion",
  "signout.confirm": "Voulez-vous vous déconnecter maintenant\u00a0?",
  "signout.button": "Se déconnecter",
  "signout.cancel": "Rester connecté",
  "verify.heading": "Consultez vos e-mails",
  "error.back": "Retour à la connexion",
  "error.heading.Configuration": "Erreur du serveur",
  "error.heading.AccessDenied": "Accès refusé",
  "error.heading.Verification": "Connexion impossible",
  "error.heading.Default": "Erreur",
  "error.Configuration":
    "Le serveur n’est pas configuré correctement\u00a0: la connexion est impossible pour le moment. Si vous gérez ce site, les journaux du serveur en donnent la raison.",
  "error.AccessDenied": "Ce compte n’est pas autorisé à se connecter ici.",
  "error.Verification":
    "Ce lien de connexion n’est plus valide\u00a0: il a peut-être expiré ou déjà servi. Demandez-en un nouveau.",
  "error.Default": "Un problème est survenu. Veuillez réessayer.",
  "error.heading.Unavailable": "Réessayez dans un instant",
  "error.Unavailable": "Ce service est momentanément indisponible : nous ne pouvons pas joindre nos données pour l’instant. Rien n’a été perdu, et vous restez connecté si vous l’étiez. Réessayez dans quelques secondes.",
  "error.retry": "Réessayer",
  "confirm.heading": "Terminer la connexion",
  "confirm.body": "Se connecter à {host} avec l’adresse {email}\u00a0?",
  "confirm.button": "Se connecter",
  "confirm.why": "Ce clic empêche les analyseurs de sécurité, qui ouvrent les liens des e-mails, d’utiliser le vôtre avant vous.",
  "password.error.wrong-password": "Ce mot de passe est incorrect.",
}
