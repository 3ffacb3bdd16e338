"use client"
/** Adds a passkey to the signed-in user, with the browser client that ships with @sesame/core. */
import { passkeysSupported, signIn } from "@sesame/core/webauthn-client"
import { useEffect, useState } from "react"

export function AddPasskey({ basePath }: { basePath: string }) {
  const [supported, setSupported] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => setSupported(passkeysSupported()), [])
  if (!supported) return <p className="muted">This browser cannot use passkeys.</p>

  async function add() {
    setError(null)
    const result = await signIn("passkey", { action: "register", basePath, callbackUrl: "/" })
    if (!result.ok && result.error !== "AbortError") setError(result.error === "NotAllowedError" ? "Cancelled." : `Could not add the passkey (${result.error}).`)
  }

  return (
    <>
      <button type="button" onClick={() => void add()}>
        Add a passkey
      </button>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </>
  )
}
