/**
 * The built-in providers of third-party services, by id: the one list that the id types, the
 * documentation page (`docs/reference/providers.md`) and the catalogue tests are made from. Not exported as
 * a subpath: apps import each provider from `@sesame/core/providers/<id>`.
 *
 * @module
 */
import Apple from "../apple.js"
import Atlassian from "../atlassian.js"
import Auth0 from "../auth0.js"
import Authentik from "../authentik.js"
import BattleNet from "../battlenet.js"
import Bitbucket from "../bitbucket.js"
import Box from "../box.js"
import Cognito from "../cognito.js"
import Discord from "../discord.js"
import Dropbox from "../dropbox.js"
import Facebook from "../facebook.js"
import Figma from "../figma.js"
import FusionAuth from "../fusionauth.js"
import GitHub from "../github.js"
import GitLab from "../gitlab.js"
import Google from "../google.js"
import HubSpot from "../hubspot.js"
import Instagram from "../instagram.js"
import Kakao from "../kakao.js"
import Keycloak from "../keycloak.js"
import Kinde from "../kinde.js"
import Line from "../line.js"
import LinkedIn from "../linkedin.js"
import Mastodon from "../mastodon.js"
import MicrosoftEntraID from "../microsoft-entra-id.js"
import Naver from "../naver.js"
import Notion from "../notion.js"
import Okta from "../okta.js"
import OneLogin from "../onelogin.js"
import Patreon from "../patreon.js"
import PingId from "../ping-id.js"
import Reddit from "../reddit.js"
import Salesforce from "../salesforce.js"
import Slack from "../slack.js"
import Spotify from "../spotify.js"
import Strava from "../strava.js"
import TikTok from "../tiktok.js"
import Twitch from "../twitch.js"
import Twitter from "../twitter.js"
import VK from "../vk.js"
import WeChat from "../wechat.js"
import WorkOS from "../workos.js"
import Yandex from "../yandex.js"
import Zitadel from "../zitadel.js"
import Zoom from "../zoom.js"
import Resend from "../resend.js"
import SendGrid from "../sendgrid.js"
import Postmark from "../postmark.js"
import Mailgun from "../mailgun.js"

/** The built-in OAuth 2 and OpenID Connect providers. */
export const oauthProviders = {
  apple: Apple,
  atlassian: Atlassian,
  auth0: Auth0,
  authentik: Authentik,
  battlenet: BattleNet,
  bitbucket: Bitbucket,
  box: Box,
  cognito: Cognito,
  discord: Discord,
  dropbox: Dropbox,
  facebook: Facebook,
  figma: Figma,
  fusionauth: FusionAuth,
  github: GitHub,
  gitlab: GitLab,
  google: Google,
  hubspot: HubSpot,
  instagram: Instagram,
  kakao: Kakao,
  keycloak: Keycloak,
  kinde: Kinde,
  line: Line,
  linkedin: LinkedIn,
  mastodon: Mastodon,
  "microsoft-entra-id": MicrosoftEntraID,
  naver: Naver,
  notion: Notion,
  okta: Okta,
  onelogin: OneLogin,
  patreon: Patreon,
  "ping-id": PingId,
  reddit: Reddit,
  salesforce: Salesforce,
  slack: Slack,
  spotify: Spotify,
  strava: Strava,
  tiktok: TikTok,
  twitch: Twitch,
  twitter: Twitter,
  vk: VK,
  wechat: WeChat,
  workos: WorkOS,
  yandex: Yandex,
  zitadel: Zitadel,
  zoom: Zoom,
} as const

/** The built-in email delivery services (sign-in links over their HTTP APIs). */
export const emailProviders = {
  resend: Resend,
  sendgrid: SendGrid,
  postmark: Postmark,
  mailgun: Mailgun,
} as const

/** The ids of the built-in OAuth 2 / OpenID Connect providers. */
export type BuiltInOAuthProviderId = keyof typeof oauthProviders

/** The ids of the built-in email delivery services. */
export type EmailProviderId = keyof typeof emailProviders

/**
 * The ids of the built-in providers of third-party services: the identity providers and, as the
 * contract has it, the email delivery services. Lowercase and hyphenated; a custom provider may
 * use any other id.
 */
export type OAuthProviderType = BuiltInOAuthProviderId | EmailProviderId
