/**
 * Provider types. Checked by the type checker (`npm test` runs it over the tests): a provider typed
 * with its service's own profile, whose fields clash with `Profile` (GitHub's numeric `id`), is
 * still a `Provider`; a provider written inline keeps `Profile` as its callback's argument; the
 * id enumeration is a union of literal ids. If one of these stops holding, the suite does not
 * type-check.
 */
import type { AuthConfig, BuiltInOAuthProviderId, OAuth2Config, OAuthProviderType, Profile, Provider } from "@sesame/core"
import Apple, { type AppleProfile } from "@sesame/core/providers/apple"
import GitHub, { type GitHubProfile } from "@sesame/core/providers/github"
import Google from "@sesame/core/providers/google"
import Resend from "@sesame/core/providers/resend"
import { describe, expect, expectTypeOf, it } from "vitest"

describe("provider types", () => {
  it("a provider typed with a clashing profile (GitHub's numeric id) is a Provider, called or not", () => {
    const github: OAuth2Config<GitHubProfile> = GitHub()
    const providers: Provider[] = [github, Apple(), Google(), Resend()]
    const config: AuthConfig = { providers: [GitHub, Google, Apple, ...providers] }
    expect(config.providers).toHaveLength(7)
    expectTypeOf<GitHubProfile["id"]>().toEqualTypeOf<number>()
    expectTypeOf<AppleProfile["email_verified"]>().toEqualTypeOf<boolean | "true" | "false" | undefined>()
  })

  it("options are typed with the service's profile", () => {
    const github = GitHub({
      profile(profile) {
        expectTypeOf(profile.id).toEqualTypeOf<number>()
        expectTypeOf(profile.login).toEqualTypeOf<string>()
        return { id: String(profile.id), name: profile.login }
      },
    })
    const google = Google({ profile: (profile) => ({ id: profile.sub, email: profile.hd ? profile.email : null }) })
    const config: AuthConfig = { providers: [github, google] }
    expect(config.providers).toHaveLength(2)
  })

  it("an inline provider's profile callback still gets a Profile", () => {
    const config: AuthConfig = {
      providers: [
        {
          id: "company",
          name: "Company",
          type: "oidc",
          issuer: "https://sso.company.example",
          profile(profile) {
            expectTypeOf(profile).toEqualTypeOf<Profile>()
            return { id: profile.sub ?? undefined }
          },
        },
      ],
    }
    expect(config.providers).toHaveLength(1)
  })

  it("an inline provider is still checked: a nonce on a plain OAuth provider, an unknown field", () => {
    // @ts-expect-error: "nonce" needs an ID token, so an oidc provider.
    const nonce: Provider = { id: "x", name: "X", type: "oauth", checks: ["nonce"] }
    // @ts-expect-error: no such field.
    const typo: Provider = { id: "x", name: "X", type: "oauth", clientSecert: "s" }
    expect([nonce, typo]).toHaveLength(2)
  })

  it("OAuthProviderType is the union of the built-in ids, identity providers and email services", () => {
    expectTypeOf<"microsoft-entra-id">().toExtend<OAuthProviderType>()
    expectTypeOf<"github">().toExtend<BuiltInOAuthProviderId>()
    expectTypeOf<"resend">().toExtend<OAuthProviderType>()
    expectTypeOf<"resend">().not.toExtend<BuiltInOAuthProviderId>()
    expectTypeOf<"not-a-provider">().not.toExtend<OAuthProviderType>()
    expectTypeOf<OAuthProviderType>().not.toEqualTypeOf<string>()
  })
})
