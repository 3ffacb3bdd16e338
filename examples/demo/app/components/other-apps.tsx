/**
 * The home page's "Other apps" section: the app is an OAuth 2.1 / OpenID Connect provider
 * (`@sesame/oauth-provider`), so other apps sign in with the user's account here. Links to the
 * demo's two such apps (/dev/partner) and to the module's pages of the apps the user allowed and
 * of the apps the user registered.
 */
import Link from "next/link"

export function OtherAppsSection({ basePath }: { basePath: string }) {
  return (
    <section aria-labelledby="other-apps-heading">
      <h2 id="other-apps-heading">Other apps</h2>
      <p>
        This app is an OAuth 2.1 / OpenID Connect provider: other apps, command-line tools and TVs sign in with your account
        here, once you allow them. <Link href="/dev/partner">Partner notes</Link> is one, with a TV beside it.
      </p>
      <p>
        <a href={`${basePath}/oauth/consents`}>Apps you allowed</a>: what each may do, and Remove.{" "}
        <a href={`${basePath}/oauth/clients`}>Apps you registered</a>: register your own, for its client ID and secret.
      </p>
    </section>
  )
}
