/**
 * The one script every operation runs through, and its SHA-1 for `EVALSHA`.
 *
 * @module
 */
import { createHash } from "node:crypto"
import { accounts } from "./accounts.js"
import { authenticators } from "./authenticators.js"
import { counters } from "./counters.js"
import { passwords } from "./passwords.js"
import { head, tail } from "./runtime.js"
import { sessions } from "./sessions.js"
import { signingKeys } from "./signing-keys.js"
import { tokens } from "./tokens.js"
import { twoFactors } from "./two-factors.js"
import { users } from "./users.js"

export const script = [head, users, accounts, sessions, tokens, authenticators, passwords, counters, twoFactors, signingKeys, tail].join("\n")

export const scriptSha = createHash("sha1").update(script).digest("hex")
