/**
 * The texts of the module's page in the built-in pages' five languages. The app's `messages`
 * option overrides any of them.
 *
 * @module
 */
type Catalogue = Readonly<Record<string, string>>

const en: Catalogue = {
  "sso.saml-refused": "Your organization’s identity provider did not sign you in. Try again, or ask your administrator.",
  "sso.section.submit": "Continue with single sign-on",
  "sso.title": "Sign in with your organization",
  "sso.lead": "Enter your work email address. If your organization signs its people in with its own identity provider, you continue there.",
  "sso.email": "Work email address",
  "sso.continue": "Continue",
  "sso.other-ways": "Other ways to sign in",
  "sso.no-connection": "No organization signs in this address with single sign-on. Use another way to sign in.",
  "sso.invalid-email": "Enter an email address, such as ada@example.com.",
}

const fr: Catalogue = {
  "sso.saml-refused": "Le fournisseur d’identité de votre organisation ne vous a pas connecté. Réessayez ou contactez votre administrateur.",
  "sso.section.submit": "Continuer avec l’authentification unique",
  "sso.title": "Se connecter avec votre organisation",
  "sso.lead": "Saisissez votre adresse e-mail professionnelle. Si votre organisation connecte ses membres avec son propre fournisseur d’identité, vous continuerez chez lui.",
  "sso.email": "Adresse e-mail professionnelle",
  "sso.continue": "Continuer",
  "sso.other-ways": "Autres moyens de se connecter",
  "sso.no-connection": "Aucune organisation ne connecte cette adresse par authentification unique. Utilisez un autre moyen de connexion.",
  "sso.invalid-email": "Saisissez une adresse e-mail, par exemple ada@example.com.",
}

const de: Catalogue = {
  "sso.saml-refused": "Der Identitätsanbieter Ihrer Organisation hat Sie nicht angemeldet. Versuchen Sie es erneut oder wenden Sie sich an Ihre Administration.",
  "sso.section.submit": "Mit Single Sign-On fortfahren",
  "sso.title": "Mit Ihrer Organisation anmelden",
  "sso.lead": "Geben Sie Ihre berufliche E-Mail-Adresse ein. Meldet Ihre Organisation ihre Mitglieder über einen eigenen Identitätsanbieter an, geht es dort weiter.",
  "sso.email": "Berufliche E-Mail-Adresse",
  "sso.continue": "Weiter",
  "sso.other-ways": "Andere Anmeldemöglichkeiten",
  "sso.no-connection": "Für diese Adresse bietet keine Organisation Single Sign-On an. Melden Sie sich auf andere Weise an.",
  "sso.invalid-email": "Geben Sie eine E-Mail-Adresse ein, zum Beispiel ada@example.com.",
}

const es: Catalogue = {
  "sso.saml-refused": "El proveedor de identidad de tu organización no inició tu sesión. Inténtalo de nuevo o consulta a tu administrador.",
  "sso.section.submit": "Continuar con inicio de sesión único",
  "sso.title": "Iniciar sesión con tu organización",
  "sso.lead": "Escribe tu correo electrónico del trabajo. Si tu organización inicia la sesión de sus miembros con su propio proveedor de identidad, continuarás allí.",
  "sso.email": "Correo electrónico del trabajo",
  "sso.continue": "Continuar",
  "sso.other-ways": "Otras formas de iniciar sesión",
  "sso.no-connection": "Ninguna organización inicia la sesión de esta dirección con inicio de sesión único. Usa otra forma de iniciar sesión.",
  "sso.invalid-email": "Escribe una dirección de correo, como ada@example.com.",
}

const ja: Catalogue = {
  "sso.saml-refused": "組織の ID プロバイダーでサインインできませんでした。もう一度試すか、管理者にお問い合わせください。",
  "sso.section.submit": "シングルサインオンで続ける",
  "sso.title": "組織のアカウントでサインイン",
  "sso.lead": "勤務先のメールアドレスを入力してください。組織が独自の ID プロバイダーでサインインを管理している場合は、そちらに移動します。",
  "sso.email": "勤務先のメールアドレス",
  "sso.continue": "続ける",
  "sso.other-ways": "その他のサインイン方法",
  "sso.no-connection": "このアドレスでシングルサインオンを提供している組織はありません。別の方法でサインインしてください。",
  "sso.invalid-email": "ada@example.com のようなメールアドレスを入力してください。",
}

export const ssoMessages: Readonly<Record<"en" | "fr" | "de" | "es" | "ja", Catalogue>> = { en, fr, de, es, ja }
