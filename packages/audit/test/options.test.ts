/**
 * The module's options, checked where the configuration is written: a webhook URL that would send
 * users' events in clear or to a place the app did not mean, a secret not in the Standard Webhooks
 * form, numbers out of range. And the signature against the Standard Webhooks example.
 */
import { describe, expect, it } from "vitest"
import { audit, webhookSignature } from "../src/index.js"

const secret = `whsec_${btoa("a".repeat(32))}`

describe("audit(options)", () => {
  it.each([
    ["http://example.com/hook", /https/],
    ["http://169.254.169.254/latest/meta-data", /https/],
    ["http://10.0.0.1/hook", /https/],
    ["ftp://example.com/hook", /https/],
    ["javascript:alert(1)", /https/],
    ["https://user:pass@example.com/hook", /credentials/],
    ["https://example.com/hook#part", /fragment/],
    ["/relative/hook", /absolute URL/],
    ["", /absolute URL/],
  ])("refuses the webhook URL %s", (url, why) => {
    expect(() => audit({ webhook: { url, secret } })).toThrow(why)
  })

  it("takes https anywhere, and http on a loopback host only", () => {
    for (const url of ["https://hooks.example.com/sesame", "http://localhost:8080/hook", "http://127.0.0.1:9/x", "http://[::1]:9/x", "http://siem.localhost/in"]) {
      expect(() => audit({ webhook: { url, secret } }), url).not.toThrow()
    }
  })

  it("refuses a secret that is not whsec_ and at least 24 bytes of base64", () => {
    for (const bad of ["a".repeat(40), "whsec_", "whsec_not base64!", `whsec_${btoa("short")}`]) {
      expect(() => audit({ webhook: { url: "https://example.com/h", secret: bad } }), bad).toThrow(/webhook.secret/)
    }
  })

  it("refuses numbers out of range and functions that are not", () => {
    expect(() => audit({ keepDays: 0 })).toThrow(/keepDays/)
    expect(() => audit({ keepDays: 1.5 })).toThrow(/keepDays/)
    expect(() => audit({ webhook: { url: "https://example.com/h", secret, retries: -1 } })).toThrow(/retries/)
    expect(() => audit({ webhook: { url: "https://example.com/h", secret, retryDelay: 1e9 } })).toThrow(/retryDelay/)
    expect(() => audit({ canRead: true as never })).toThrow(/canRead/)
    expect(() => audit({ onEvent: "log" as never })).toThrow(/onEvent/)
  })

  it("declares its two tables, with no reference to the user (the log outlives a deleted user)", () => {
    const module = audit()
    expect(module.id).toBe("audit")
    expect(module.models!.map((m) => m.table)).toEqual(["sesame_audit_events", "sesame_audit_deliveries"])
    for (const model of module.models!) for (const field of Object.values(model.fields)) expect((field as { references?: unknown }).references).toBeUndefined()
    expect(module.models![0]!.indexes).toEqual(expect.arrayContaining([{ fields: ["userId", "at"] }, { fields: ["at"] }]))
  })
})

describe("the webhook signature", () => {
  it("is the Standard Webhooks example's", async () => {
    // From the specification's reference implementations (standard-webhooks, `test_sign`).
    const key = Uint8Array.from(atob("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), (c) => c.charCodeAt(0))
    const signed = await webhookSignature(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}')
    expect(signed).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
  })
})
