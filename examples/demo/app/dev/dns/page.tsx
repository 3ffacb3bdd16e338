import { notFound } from "next/navigation"
import { dnsEnabled, dnsRecords, type DevDnsRecord } from "../../../lib/dns"
import { publishRecordAction } from "./actions"

export const dynamic = "force-dynamic"

/**
 * Development only: the local DNS server's records, and a form to publish a TXT record, which is
 * what an organization's admin does at their DNS provider to prove their domain. The form's fields
 * come filled from the link on the domains page.
 */
export default async function Dns({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (!dnsEnabled()) notFound()
  const { name, value, published, refused } = await searchParams
  let records: DevDnsRecord[] | null = null
  try {
    records = await dnsRecords()
  } catch {
    // Shown below: the launcher that ran the DNS server has stopped.
  }
  return (
    <>
      <h1>DNS</h1>
      <p className="muted">
        Development only: a DNS server on this machine answers the app&apos;s lookups, so that an organization can prove a
        domain here. In production, the record goes to the domain&apos;s real DNS.
      </p>
      {typeof published === "string" ? (
        <p role="status" data-testid="notice">
          Published a TXT record for {published}.
        </p>
      ) : null}
      {typeof refused === "string" ? (
        <p role="alert" className="error" data-testid="notice">
          Not published: {refused}
        </p>
      ) : null}
      <form action={publishRecordAction} className="fields" data-testid="publish">
        <label htmlFor="record-name">Name</label>
        <input id="record-name" name="name" required defaultValue={typeof name === "string" ? name : ""} autoComplete="off" />
        <label htmlFor="record-value">TXT value</label>
        <input id="record-value" name="value" required defaultValue={typeof value === "string" ? value : ""} autoComplete="off" />
        <p>
          <button type="submit">Publish TXT record</button>
        </p>
      </form>
      <h2 id="records-heading">Records</h2>
      {records === null ? (
        <p role="alert" className="error">
          The local DNS server does not answer. Start the app with npm start.
        </p>
      ) : records.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <table data-testid="records" aria-labelledby="records-heading">
          <thead>
            <tr>
              <th>Name</th>
              <th>Type</th>
              <th>Value</th>
            </tr>
          </thead>
          <tbody>
            {records.map((record) => (
              <tr key={`${record.name} ${record.value}`}>
                <td>{record.name}</td>
                <td>{record.type}</td>
                <td>
                  <code>{record.value}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}
