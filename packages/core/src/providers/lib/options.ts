/**
 * The options of a built-in OAuth/OIDC provider, and how they meet its defaults.
 *
 * Every field of the provider can be passed; a passed value wins, except that the endpoint
 * objects (`authorization`, `token`, `userinfo`), `style` and `client` are merged one level deep,
 * so that `authorization: { params: { scope } }` changes the scope and keeps the URL and the other
 * parameters, and an endpoint given as a string replaces only its URL. A value passed as
 * `undefined` keeps the default (as an option object built from an unset environment variable
 * expects).
 *
 * @module
 */
import type {
  AuthorizationEndpointConfig,
  OAuth2Config,
  OAuthConfig,
  OIDCConfig,
  TokenEndpointConfig,
  UserinfoEndpointConfig,
} from "../../oauth/types.js"
import type { Profile } from "../../types.js"

/** Options of a built-in plain OAuth 2 provider: any field of it, all optional. */
export type OAuthUserConfig<P = Profile> = Partial<Omit<OAuth2Config<P>, "type">>

/** Options of a built-in OpenID Connect provider: any field of it, all optional. */
export type OIDCUserConfig<P = Profile> = Partial<Omit<OIDCConfig<P>, "type">>

type EndpointConfig = AuthorizationEndpointConfig | TokenEndpointConfig | UserinfoEndpointConfig

function mergeEndpoint<E extends EndpointConfig>(base: string | E | undefined, override: string | E | undefined): string | E | undefined {
  if (override === undefined) return base
  const baseObject = (typeof base === "string" ? { url: base } : (base ?? {})) as E
  if (typeof override === "string") return { ...baseObject, url: override }
  return { ...baseObject, ...override, params: { ...baseObject.params, ...override.params } }
}

function defined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>
}

/** `defaults` with `options` applied (see the module comment). */
export function withOptions<C extends OAuthConfig<P>, P>(defaults: C, options: Partial<C> | undefined): C {
  if (!options) return defaults
  const passed = defined(options)
  const style = defaults.style || passed.style ? { ...defaults.style, ...passed.style } : undefined
  const client = defaults.client || passed.client ? { ...defaults.client, ...passed.client } : undefined
  return {
    ...defaults,
    ...passed,
    type: defaults.type,
    authorization: mergeEndpoint(defaults.authorization, passed.authorization),
    token: mergeEndpoint(defaults.token, passed.token),
    userinfo: mergeEndpoint(defaults.userinfo, passed.userinfo),
    ...(style ? { style } : {}),
    ...(client ? { client } : {}),
  }
}

/** The URL of an endpoint as configured (a string, or an object's `url`). */
export function endpointUrl(endpoint: string | EndpointConfig | undefined): string | undefined {
  return typeof endpoint === "string" ? endpoint : endpoint?.url
}
