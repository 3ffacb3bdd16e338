/**
 * The local DNS server that `npm start` runs beside the app (`@sesame/dev-dns`), where an
 * organization's admin publishes the TXT record that proves its domain, as they would at their DNS
 * provider. The app reads and publishes records over loopback HTTP, at `DEV_DNS_URL` with the
 * bearer token `DEV_API_TOKEN`. Unset outside development, and then the DNS page does not exist.
 */
import type { DevDnsRecord } from "@sesame/dev-dns"

export type { DevDnsRecord }

export const dnsEnabled = () => Boolean(process.env.DEV_DNS_URL && process.env.DEV_API_TOKEN)

async function call(init: RequestInit = {}): Promise<Response> {
  return fetch(`${process.env.DEV_DNS_URL}/records`, {
    ...init,
    headers: { authorization: `Bearer ${process.env.DEV_API_TOKEN}`, "content-type": "application/json" },
    cache: "no-store",
  })
}

/** The published records. Throws when the DNS server does not answer. */
export async function dnsRecords(): Promise<DevDnsRecord[]> {
  const response = await call()
  if (!response.ok) throw new Error(`The DNS server answered ${response.status}`)
  return (await response.json()) as DevDnsRecord[]
}

/** Publishes a TXT record; the DNS server's refusal (a name that is not one) as its message. */
export async function publishRecord(name: string, value: string): Promise<{ refused: string } | null> {
  const response = await call({ method: "POST", body: JSON.stringify({ name, value }) })
  if (response.status === 400) return { refused: ((await response.json()) as { error: string }).error }
  if (!response.ok) throw new Error(`The DNS server answered ${response.status}`)
  return null
}
