import Link from "next/link"
import { redirect } from "next/navigation"
import { isStorageUnavailable } from "@sesame/next"
import { basePath, organizationsApi, ssoApi } from "../../../auth"
import { dnsEnabled } from "../../../lib/dns"
import { sessionOrOutage } from "../../../lib/session"
import { Unavailable } from "../../components/unavailable"
import { addDomainAction, verifyDomainAction } from "./actions"

export const dynamic = "force-dynamic"

const notices: Record<string, { text: string; error: boolean }> = {
  DomainAdded: { text: "The domain was added. Publish its TXT record, then verify it.", error: false },
  DomainVerified: { text: "The domain is verified: it is this organization's.", error: false },
  InvalidInput: { text: "That is not a domain, or its TXT record was not found yet: publish it, then verify again.", error: true },
  DomainTaken: { text: "Another organization has verified that domain.", error: true },
  Forbidden: { text: "Your roles in this organization do not allow that.", error: true },
  NotFound: { text: "That domain does not exist in this organization.", error: true },
  Conflict: { text: "This organization has that domain already.", error: true },
}

/**
 * The active organization's verified domains and single sign-on, for those who may update it
 * (owners and admins): add a domain, publish its TXT record, verify it; then connect the
 * organization's identity provider on the SSO plugin's built-in page. Under `npm start`, the DNS
 * page stands for the DNS provider, and Acme Corp's identity provider runs on this machine.
 */
export default async function DomainsAndSso({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await sessionOrOutage()
  if (isStorageUnavailable(session)) return <Unavailable error={session} retry="/organizations/sso" />
  if (!session?.user) redirect(`${basePath}/signin?callbackUrl=${encodeURIComponent("/organizations/sso")}`)
  const active = session.organization
  if (!active) redirect("/organizations")
  if (!(await organizationsApi.hasPermission(active.id, { organization: ["update"] }))) {
    return (
      <>
        <h1>Domains and single sign-on</h1>
        <p role="alert" className="error">
          Only the owners and admins of {active.name} manage its domains and single sign-on.
        </p>
      </>
    )
  }
  const { notice } = await searchParams
  const message = typeof notice === "string" ? notices[notice] : undefined
  const [domains, connections] = await Promise.all([organizationsApi.listDomains(active.id), ssoApi.listConnections(active.id)])
  const demoIdp = process.env.DEMO_SSO_ISSUER
    ? { issuer: process.env.DEMO_SSO_ISSUER, clientId: process.env.DEMO_SSO_CLIENT_ID, clientSecret: process.env.DEMO_SSO_CLIENT_SECRET, domain: process.env.DEMO_SSO_DOMAIN }
    : null

  return (
    <>
      <h1>Domains and single sign-on</h1>
      <p className="muted">
        For {active.name}. <Link href="/organizations">Back to your organizations</Link>
      </p>
      {message ? (
        <p role="status" data-testid="notice" className={message.error ? "error" : undefined}>
          {message.text}
        </p>
      ) : null}

      <section aria-labelledby="domains-heading">
        <h2 id="domains-heading">Domains</h2>
        <p>
          A domain the organization proves is its own: its identity provider may then speak for the addresses there, and
          people who type such an address on the sign-in page are sent to it.
        </p>
        {domains.length > 0 ? (
          <ul data-testid="domains">
            {domains.map((domain) => (
              <li key={domain.id} data-domain={domain.domain}>
                <strong>{domain.domain}</strong>{" "}
                {domain.verified ? (
                  <span className="badge">verified</span>
                ) : (
                  <>
                    <span className="muted">(not verified)</span>
                    <br />
                    Publish this TXT record: <code data-testid="record-name">{domain.record.name}</code> ={" "}
                    <code data-testid="record-value">{domain.record.value}</code>
                    {dnsEnabled() ? (
                      <>
                        {" "}
                        (<Link href={`/dev/dns?${new URLSearchParams({ name: domain.record.name, value: domain.record.value })}`}>on the demo&apos;s DNS page</Link>)
                      </>
                    ) : null}
                    <form action={verifyDomainAction} className="inline-form">
                      <input type="hidden" name="organizationId" value={active.id} />
                      <input type="hidden" name="domainId" value={domain.id} />
                      <button type="submit" aria-label={`Verify ${domain.domain}`}>
                        Verify
                      </button>
                    </form>
                  </>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No domain yet.</p>
        )}
        <form action={addDomainAction} className="fields">
          <input type="hidden" name="organizationId" value={active.id} />
          <label htmlFor="domain">Domain</label>
          <input id="domain" name="domain" required placeholder={demoIdp?.domain ?? "example.com"} autoComplete="off" />
          <p>
            <button type="submit">Add domain</button>
          </p>
        </form>
      </section>

      <section aria-labelledby="sso-heading">
        <h2 id="sso-heading">Single sign-on</h2>
        {connections.length > 0 ? (
          <ul data-testid="connections">
            {connections.map((connection) => (
              <li key={connection.id}>
                <strong>{connection.name}</strong>{" "}
                <span className="muted">
                  ({connection.protocol === "oidc" ? "OpenID Connect" : "SAML 2.0"}, {connection.enabled ? "on" : "off"}, new members join as{" "}
                  {connection.roles.join(", ")})
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No connection yet.</p>
        )}
        <p>
          <a href={`${basePath}/sso/manage?organizationId=${encodeURIComponent(active.id)}`}>Manage connections</a>: the SSO
          plugin&apos;s built-in page (OpenID Connect or SAML 2.0, SCIM provisioning), in five languages.
        </p>
        {demoIdp ? (
          <aside aria-labelledby="demo-idp-heading" data-testid="demo-idp">
            <h3 id="demo-idp-heading">Try it with Acme Corp&apos;s identity provider</h3>
            <p>
              <code>npm start</code> runs one on this machine, for the people of {demoIdp.domain}. Prove {demoIdp.domain} above,
              then add an OpenID Connect connection with:
            </p>
            <dl>
              <dt>Issuer</dt>
              <dd>
                <code data-testid="demo-idp-issuer">{demoIdp.issuer}</code>
              </dd>
              <dt>Client ID</dt>
              <dd>
                <code data-testid="demo-idp-client-id">{demoIdp.clientId}</code>
              </dd>
              <dt>Client secret</dt>
              <dd>
                <code data-testid="demo-idp-client-secret">{demoIdp.clientSecret}</code>
              </dd>
            </dl>
            <p>
              Then sign out, and on the sign-in page continue with single sign-on as lin@{demoIdp.domain}: Lin joins{" "}
              {active.name} on the way in.
            </p>
          </aside>
        ) : null}
      </section>
    </>
  )
}
