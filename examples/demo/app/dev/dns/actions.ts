"use server"
/** The DNS page's one action: publish a TXT record, as at a DNS provider's console. */
import { notFound, redirect } from "next/navigation"
import { dnsEnabled, publishRecord } from "../../../lib/dns"

const field = (form: FormData, name: string) => {
  const value = form.get(name)
  return typeof value === "string" ? value.trim() : ""
}

export async function publishRecordAction(form: FormData): Promise<void> {
  if (!dnsEnabled()) notFound()
  const refusal = await publishRecord(field(form, "name"), field(form, "value"))
  redirect(`/dev/dns?${new URLSearchParams(refusal ? { refused: refusal.refused } : { published: field(form, "name") })}`)
}
