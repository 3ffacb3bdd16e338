/**
 * Français.
 *
 * @module
 */
import type { Messages } from "../messages.js"

export const fr: Messages = {
  "signin.heading": "Connexion",
  "signin.with": "Se connecter avec {provider}",
  "signin.or": "ou",
  "signin.email.label": "Adresse e-mail",
  "signin.email.placeholder": "vous@exemple.com",
  "signin.none": "Aucun moyen de connexion n’est configuré pour ce site.",
  "signin.passkey.hint": "Saisissez votre adresse e-mail pour créer une clé d’accès, ou laissez le champ vide pour utiliser une clé existante.",
  "signin.passkey.working": "En attente de votre clé d’accès…",
  "signin.passkey.failed": "La demande de clé d’accès a été annulée ou a expiré. Veuillez réessayer.",
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
  "signin.error.WebAuthnVerificationError": "Votre clé d’accès n’a pas pu être vérifiée. Veuillez réessayer.",
  "signin.error.EmailNotVerified":
    "Confirmez d’abord votre adresse e-mail\u00a0: nous vous avons envoyé un nouveau lien. Ouvrez-le, puis connectez-vous.",
  "signin.password.label": "Mot de passe",
  "signin.password.forgot": "Mot de passe oublié\u00a0?",
  "signin.password.signup": "Pas encore de compte\u00a0? Créez-en un",
  "signin.notice.PasswordReset": "Votre mot de passe a été modifié. Connectez-vous avec le nouveau.",
  "signin.error.Default": "Un problème est survenu pendant la connexion. Veuillez réessayer.",
  "signout.heading": "Déconnexion",
  "signout.confirm": "Voulez-vous vous déconnecter maintenant\u00a0?",
  "signout.button": "Se déconnecter",
  "signout.cancel": "Rester connecté",
  "verify.heading": "Consultez vos e-mails",
  "verify.body": "Nous vous avons envoyé un lien de connexion par e-mail. Ouvrez-le pour continuer\u00a0; vous pouvez fermer cette page.",
  "verify.host": "Retour à {host}",
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
  "confirm.heading": "Terminer la connexion",
  "confirm.body": "Se connecter à {host} avec l’adresse {email}\u00a0?",
  "confirm.button": "Se connecter",
  "confirm.why": "Ce clic empêche les analyseurs de sécurité, qui ouvrent les liens des e-mails, d’utiliser le vôtre avant vous.",
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
  "password.error.invalid-link": "Ce lien n’est plus valide\u00a0: il a peut-être expiré ou déjà servi. Demandez-en un nouveau.",
  "password.error.wrong-password": "Ce mot de passe est incorrect.",
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
  "email.subject": "Connexion à {host}",
  "email.button": "Se connecter",
  "email.open": "Ouvrez ce lien pour vous connecter\u00a0:",
  "email.copy": "Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur\u00a0:",
  "email.notice": "Ce lien ne sert qu’une fois, pendant un temps limité. Si vous n’avez pas demandé à vous connecter, ignorez cet e-mail.",
}
