import { createTransport } from "nodemailer"
import { afterEach, describe, expect, it } from "vitest"
import { startMailbox, type Mailbox } from "@sesame/dev-mailbox"

let mailbox: Mailbox | undefined

afterEach(async () => {
  await mailbox?.close()
  mailbox = undefined
})

function send(box: Mailbox, to: string, extra: { subject?: string; text?: string; html?: string } = {}) {
  return createTransport(box.url).sendMail({ from: '"Sesame" <no-reply@example.com>', to, subject: "Hello", text: "hi", ...extra })
}

describe("dev mailbox", () => {
  it("receives real SMTP mail and keeps it parsed, with long links intact", async () => {
    mailbox = await startMailbox()
    expect(mailbox.url).toBe(`smtp://127.0.0.1:${mailbox.port}`)
    const link = `http://localhost:3000/auth/callback/email?token=${"a".repeat(120)}&email=ada%40example.com`
    await send(mailbox, "Ada@Example.com", { subject: "Sign in", text: `Open ${link}`, html: `<a href="${link}">Sign in</a>` })
    const [message] = mailbox.messages()
    expect(message).toMatchObject({ from: '"Sesame" <no-reply@example.com>', to: ["ada@example.com"], subject: "Sign in" })
    expect(message!.text).toContain(link)
    expect(message!.html).toContain(`href="${link}"`)
    expect(JSON.parse(JSON.stringify(message))).toEqual(message)
    expect(Object.keys(message!).sort()).toEqual(["date", "from", "html", "id", "subject", "text", "to"])
  })

  it("waitFor returns each message once, oldest first, and waits for the next one", async () => {
    mailbox = await startMailbox()
    await send(mailbox, "ada@example.com", { subject: "first" })
    await send(mailbox, "bob@example.com", { subject: "other" })
    expect((await mailbox.waitFor("ada@example.com")).subject).toBe("first")
    const pending = mailbox.waitFor("ada@example.com", { timeout: 5000 })
    await send(mailbox, "ada@example.com", { subject: "second" })
    expect((await pending).subject).toBe("second")
    await expect(mailbox.waitFor("ada@example.com", { timeout: 50 })).rejects.toThrow(/No message to ada@example.com/)
  })

  it("refuses the recipients it is told to, with 550, and keeps nothing for them", async () => {
    mailbox = await startMailbox({ refuse: ["Nobody@example.com"] })
    await expect(send(mailbox, "nobody@example.com")).rejects.toMatchObject({ responseCode: 550 })
    await send(mailbox, "ada@example.com")
    expect(mailbox.messages().map((m) => m.to)).toEqual([["ada@example.com"]])
  })

  it("refuses by predicate, clears, and stops listening on close", async () => {
    mailbox = await startMailbox({ refuse: (address) => address.endsWith("@blocked.test") })
    await expect(send(mailbox, "x@blocked.test")).rejects.toMatchObject({ responseCode: 550 })
    await send(mailbox, "ada@example.com")
    mailbox.clear()
    expect(mailbox.messages()).toEqual([])
    const closed = mailbox
    mailbox = undefined
    const waiting = expect(closed.waitFor("ada@example.com")).rejects.toThrow(/closed/)
    await closed.close()
    await waiting
    await expect(send(closed, "ada@example.com")).rejects.toMatchObject({ code: "ESOCKET" })
  })

  it("keeps at most `limit` messages", async () => {
    mailbox = await startMailbox({ limit: 2 })
    for (const subject of ["1", "2", "3"]) await send(mailbox, "ada@example.com", { subject })
    expect(mailbox.messages().map((m) => m.subject)).toEqual(["2", "3"])
  })
})
