/**
 * A realistic profile per built-in provider, shaped like the service's documented answer (ID token
 * claims, or the userinfo response as the provider's request returns it), with the user the
 * provider's `profile` callback must make of it.
 */
import type { BuiltInOAuthProviderId } from "@sesame/core"

export interface Sample {
  profile: Record<string, unknown>
  user: { id: string; name: string | null; email: string | null; image: string | null }
}

const oidc = (sub: string, extra: Record<string, unknown> = {}): Sample => ({
  profile: { sub, name: "Ada Lovelace", email: "ada@example.com", email_verified: true, picture: "https://img.example/ada.png", ...extra },
  user: { id: sub, name: "Ada Lovelace", email: "ada@example.com", image: "https://img.example/ada.png" },
})

export const samples: Record<BuiltInOAuthProviderId, Sample> = {
  apple: {
    profile: { sub: "001234.abcdef.1234", email: "ada@privaterelay.appleid.com", email_verified: "true", is_private_email: "true", user: { name: { firstName: "Ada", lastName: "Lovelace" } } },
    user: { id: "001234.abcdef.1234", name: "Ada Lovelace", email: "ada@privaterelay.appleid.com", image: null },
  },
  atlassian: {
    profile: { account_id: "5b10a2844c20165700ede21g", name: "Ada Lovelace", email: "ada@example.com", email_verified: true, picture: "https://avatar-management.example/ada", nickname: "ada" },
    user: { id: "5b10a2844c20165700ede21g", name: "Ada Lovelace", email: "ada@example.com", image: "https://avatar-management.example/ada" },
  },
  auth0: oidc("auth0|6523a1b2c3", { nickname: "ada" }),
  authentik: oidc("6a3c9f0e2b", { preferred_username: "ada" }),
  battlenet: {
    profile: { sub: "123456789", id: 123456789, battle_tag: "Ada#1815" },
    user: { id: "123456789", name: "Ada#1815", email: null, image: null },
  },
  bitbucket: {
    profile: { uuid: "{a1b2c3d4-0000-1111-2222-333344445555}", account_id: "557058:abc", username: "ada", display_name: "Ada Lovelace", links: { avatar: { href: "https://bitbucket.example/avatar/ada.png" } }, email: "ada@example.com" },
    user: { id: "{a1b2c3d4-0000-1111-2222-333344445555}", name: "Ada Lovelace", email: "ada@example.com", image: "https://bitbucket.example/avatar/ada.png" },
  },
  box: {
    profile: { type: "user", id: "11446498", name: "Ada Lovelace", login: "ada@example.com", avatar_url: "https://app.box.example/api/avatar/large/11446498" },
    user: { id: "11446498", name: "Ada Lovelace", email: "ada@example.com", image: "https://app.box.example/api/avatar/large/11446498" },
  },
  cognito: {
    profile: { sub: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", "cognito:username": "ada", email: "ada@example.com", email_verified: true },
    user: { id: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", name: "ada", email: "ada@example.com", image: null },
  },
  discord: {
    profile: { id: "80351110224678912", username: "ada", global_name: "Ada Lovelace", discriminator: "0", avatar: "a_8342729096ea3675442027381ff50dfe", email: "ada@example.com", verified: true },
    user: { id: "80351110224678912", name: "Ada Lovelace", email: "ada@example.com", image: "https://cdn.discordapp.com/avatars/80351110224678912/a_8342729096ea3675442027381ff50dfe.gif" },
  },
  dropbox: {
    profile: { account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", name: { display_name: "Ada Lovelace", given_name: "Ada", surname: "Lovelace" }, email: "ada@example.com", email_verified: true, profile_photo_url: "https://dl-web.dropbox.example/account_photo/ada" },
    user: { id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", name: "Ada Lovelace", email: "ada@example.com", image: "https://dl-web.dropbox.example/account_photo/ada" },
  },
  facebook: {
    profile: { id: "10158123456789012", name: "Ada Lovelace", email: "ada@example.com", picture: { data: { url: "https://platform-lookaside.fbsbx.example/ada.jpg", width: 200, height: 200, is_silhouette: false } } },
    user: { id: "10158123456789012", name: "Ada Lovelace", email: "ada@example.com", image: "https://platform-lookaside.fbsbx.example/ada.jpg" },
  },
  figma: {
    profile: { id: "1234567890", email: "ada@example.com", handle: "Ada Lovelace", img_url: "https://s3-alpha.figma.example/profile/ada" },
    user: { id: "1234567890", name: "Ada Lovelace", email: "ada@example.com", image: "https://s3-alpha.figma.example/profile/ada" },
  },
  fusionauth: oidc("00000000-0000-0001-0000-000000000000", { preferred_username: "ada" }),
  github: {
    profile: { id: 583231, login: "octocat", name: null, email: "octocat@example.com", avatar_url: "https://avatars.githubusercontent.example/u/583231", html_url: "https://github.com/octocat", type: "User" },
    user: { id: "583231", name: "octocat", email: "octocat@example.com", image: "https://avatars.githubusercontent.example/u/583231" },
  },
  gitlab: oidc("1234567", { nickname: "ada", groups: ["analytical"] }),
  google: oidc("110169484474386276334", { hd: "example.com", given_name: "Ada", family_name: "Lovelace" }),
  hubspot: {
    profile: { token: "CJ…", user: "ada@example.com", hub_domain: "acme.example", scopes: ["oauth"], hub_id: 62515, app_id: 456, expires_in: 21588, user_id: 123, token_type: "access" },
    user: { id: "123", name: null, email: "ada@example.com", image: null },
  },
  instagram: {
    profile: { user_id: "17841400000000000", username: "ada.codes", name: "", profile_picture_url: "https://scontent.cdninstagram.example/ada.jpg" },
    user: { id: "17841400000000000", name: "ada.codes", email: null, image: "https://scontent.cdninstagram.example/ada.jpg" },
  },
  kakao: {
    profile: { id: 1234567890, connected_at: "2024-01-01T00:00:00Z", kakao_account: { email: "ada@example.com", is_email_verified: true, profile: { nickname: "에이다", profile_image_url: "http://k.kakaocdn.example/ada.jpg" } } },
    user: { id: "1234567890", name: "에이다", email: "ada@example.com", image: "http://k.kakaocdn.example/ada.jpg" },
  },
  keycloak: oidc("f1a2b3c4-d5e6-7890-abcd-ef1234567890", { preferred_username: "ada" }),
  kinde: oidc("kp_0123456789abcdef"),
  line: {
    profile: { iss: "https://access.line.me", sub: "U1234567890abcdef1234567890abcdef", aud: "1234567890", name: "Ada", picture: "https://profile.line-scdn.example/ada", email: "ada@example.com" },
    user: { id: "U1234567890abcdef1234567890abcdef", name: "Ada", email: "ada@example.com", image: "https://profile.line-scdn.example/ada" },
  },
  linkedin: oidc("782bbtaQ", { locale: { country: "US", language: "en" } }),
  mastodon: {
    profile: { id: "109302", username: "ada", acct: "ada", display_name: "", avatar: "https://files.mastodon.example/avatars/ada.png", url: "https://mastodon.example/@ada" },
    user: { id: "109302", name: "ada", email: null, image: "https://files.mastodon.example/avatars/ada.png" },
  },
  "microsoft-entra-id": {
    profile: { sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", tid: "9122040d-6c67-4c5b-b112-36a304b66dad", oid: "00000000-0000-0000-66f3-3332eca7ea81", name: "Ada Lovelace", email: "ada@example.com", preferred_username: "ada@contoso.example" },
    user: { id: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", name: "Ada Lovelace", email: "ada@example.com", image: null },
  },
  naver: {
    profile: { resultcode: "00", message: "success", response: { id: "32742776", nickname: "ada", name: "Ada Lovelace", email: "ada@example.com", profile_image: "https://ssl.pstatic.example/ada.png" } },
    user: { id: "32742776", name: "Ada Lovelace", email: "ada@example.com", image: "https://ssl.pstatic.example/ada.png" },
  },
  notion: {
    profile: { object: "user", id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6", name: "Ada Lovelace", avatar_url: null, type: "person", person: { email: "ada@example.com" } },
    user: { id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6", name: "Ada Lovelace", email: "ada@example.com", image: null },
  },
  okta: oidc("00uid4BxXw6I6TV4m0g3", { preferred_username: "ada@example.com" }),
  onelogin: oidc("123456", { preferred_username: "ada" }),
  patreon: {
    profile: { data: { id: "12345", type: "user", attributes: { full_name: "Ada Lovelace", email: "ada@example.com", image_url: "https://c8.patreon.example/ada.png", is_email_verified: true } } },
    user: { id: "12345", name: "Ada Lovelace", email: "ada@example.com", image: "https://c8.patreon.example/ada.png" },
  },
  "ping-id": oidc("a4f2c3f8-1a2b-4c5d-8e9f-0a1b2c3d4e5f"),
  reddit: {
    profile: { id: "abc123", name: "ada_l", icon_img: "https://styles.redditmedia.example/ada.png?width=256&amp;height=256&amp;s=1" },
    user: { id: "abc123", name: "ada_l", email: null, image: "https://styles.redditmedia.example/ada.png?width=256&height=256&s=1" },
  },
  salesforce: oidc("https://login.salesforce.com/id/00Dx0000000/005x0000000", { user_id: "005x0000000", organization_id: "00Dx0000000" }),
  slack: {
    profile: { sub: "U0R7JM", "https://slack.com/user_id": "U0R7JM", "https://slack.com/team_id": "T0R7GR", email: "ada@example.com", email_verified: true, name: "Ada Lovelace", "https://slack.com/user_image_192": "https://secure.gravatar.example/ada-192.png" },
    user: { id: "U0R7JM", name: "Ada Lovelace", email: "ada@example.com", image: "https://secure.gravatar.example/ada-192.png" },
  },
  spotify: {
    profile: { id: "wizzler", display_name: "Ada Lovelace", email: "ada@example.com", images: [{ url: "https://i.scdn.example/image/ada", height: 300, width: 300 }], country: "GB" },
    user: { id: "wizzler", name: "Ada Lovelace", email: "ada@example.com", image: "https://i.scdn.example/image/ada" },
  },
  strava: {
    profile: { id: 134815, username: "ada", firstname: "Ada", lastname: "Lovelace", profile: "https://dgalywyr863hv.cloudfront.example/ada/large.jpg" },
    user: { id: "134815", name: "Ada Lovelace", email: null, image: "https://dgalywyr863hv.cloudfront.example/ada/large.jpg" },
  },
  tiktok: {
    profile: { data: { user: { open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", union_id: "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1", display_name: "Ada", avatar_url: "https://p16-sign.tiktokcdn.example/ada.jpeg" } }, error: { code: "ok", message: "" } },
    user: { id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", name: "Ada", email: null, image: "https://p16-sign.tiktokcdn.example/ada.jpeg" },
  },
  twitch: {
    profile: { sub: "713936733", preferred_username: "ada_plays", email: "ada@example.com", email_verified: true, picture: "https://static-cdn.jtvnw.example/ada.png" },
    user: { id: "713936733", name: "ada_plays", email: "ada@example.com", image: "https://static-cdn.jtvnw.example/ada.png" },
  },
  twitter: {
    profile: { data: { id: "2244994945", name: "Ada Lovelace", username: "ada", profile_image_url: "https://pbs.twimg.example/profile_images/ada_normal.jpg" } },
    user: { id: "2244994945", name: "Ada Lovelace", email: null, image: "https://pbs.twimg.example/profile_images/ada_normal.jpg" },
  },
  vk: {
    profile: { user: { user_id: "1234567890", first_name: "Ada", last_name: "Lovelace", avatar: "https://sun9-1.userapi.example/ada.jpg", email: "ada@example.com" } },
    user: { id: "1234567890", name: "Ada Lovelace", email: "ada@example.com", image: "https://sun9-1.userapi.example/ada.jpg" },
  },
  wechat: {
    profile: { openid: "OPENID", unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL", nickname: "Ada", sex: 2, headimgurl: "https://thirdwx.qlogo.example/ada/132", privilege: [] },
    user: { id: "o6_bmasdasdsad6_2sgVt7hMZOPfL", name: "Ada", email: null, image: "https://thirdwx.qlogo.example/ada/132" },
  },
  workos: {
    profile: { object: "profile", id: "prof_01DMC79VCBZ0NY2099737PSVF1", connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5", connection_type: "OktaSAML", organization_id: "org_01EHWNCE74X7JSDV0X3SZ3KJNY", email: "ada@example.com", first_name: "Ada", last_name: "Lovelace" },
    user: { id: "prof_01DMC79VCBZ0NY2099737PSVF1", name: "Ada Lovelace", email: "ada@example.com", image: null },
  },
  yandex: {
    profile: { id: "1000034426", login: "ada", display_name: "Ada", real_name: "Ada Lovelace", default_email: "ada@yandex.example", default_avatar_id: "131652443", is_avatar_empty: false },
    user: { id: "1000034426", name: "Ada", email: "ada@yandex.example", image: "https://avatars.yandex.net/get-yapic/131652443/islands-200" },
  },
  zitadel: oidc("164849854481612801"),
  zoom: {
    profile: { id: "KDcuGIm1QgePTO8WbOqwIQ", first_name: "Ada", last_name: "Lovelace", display_name: "Ada Lovelace", email: "ada@example.com", pic_url: "https://lh4.googleusercontent.example/ada.jpg" },
    user: { id: "KDcuGIm1QgePTO8WbOqwIQ", name: "Ada Lovelace", email: "ada@example.com", image: "https://lh4.googleusercontent.example/ada.jpg" },
  },
}
