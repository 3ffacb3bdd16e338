/**
 * The one script every operation runs through, and its SHA-1 for `EVALSHA`.
 *
 * @module
 */
import { createHash } from "node:crypto"
import { accounts } from "./accounts.js"
import { authenticators } from "./authenticators.js"
import { head, tail } from "./runtime.js"
import { sessions } from "./sessions.js"
import { tokens } from "./tokens.js"
import { users } from "./users.js"

export const script = [head, users, accounts, sessions, tokens, authenticators, tail].join("\n")

export const scriptSha = createHash("sha1").update(script).digest("hex")
