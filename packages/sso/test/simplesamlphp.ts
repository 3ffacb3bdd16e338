/**
 * A real SAML 2.0 identity provider for end-to-end tests: Debian's SimpleSAMLphp 1.19 under PHP's
 * built-in server (`php -S`, no Apache), configured in a temporary directory of its own
 * (SIMPLESAMLPHP_CONFIG_DIR; nothing under /etc/simplesamlphp is read), with a fresh signing key,
 * username/password users (exampleauth:UserPass) and the given service providers.
 *
 * It listens on 127.0.0.1 but calls itself `http://localhost:<port>`, the host the app under test
 * uses: browser, IdP and app are then same-site (the port does not count), so the app's
 * SameSite=Lax cookie still comes with the IdP's cross-origin form POST to the ACS.
 *
 * php -S runs one process (PHP_CLI_SERVER_WORKERS is cleared: its workers ignore SIGTERM), which
 * `stop()` ends with SIGTERM.
 */
import { spawn, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "@sesame/testing"
import { keyPair } from "./saml/fixtures.js"

const www = "/usr/share/simplesamlphp/www"
const install = "sudo apt-get update && sudo apt-get install -y simplesamlphp php8.2-xml php8.2-mbstring"
const emailAddressFormat = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"

/** A user of the IdP's login form. Its NameID is its `email` attribute (emailAddress format). */
export interface SimpleSamlPhpUser {
  /** Anything but `:`. */
  username: string
  password: string
  attributes: Record<string, string[]> & { email: [string] }
}

/** A service provider the IdP answers, at its assertion consumer service (HTTP-POST). */
export interface SimpleSamlPhpSp {
  entityId: string
  acsUrl: string
  /** The SP's certificate (PEM): what its signed AuthnRequests are checked with, and what assertions are encrypted to. */
  certificate?: string
  /** Refuse an AuthnRequest that is not signed by `certificate` (`validate.authnrequest`). */
  validateAuthnRequest?: boolean
  /** Encrypt the (signed) assertion to `certificate` (`assertion.encryption`: RSA-OAEP, AES-128-CBC in 1.19). */
  encryptAssertion?: boolean
}

export interface SimpleSamlPhpOptions {
  sp: SimpleSamlPhpSp[]
  users: SimpleSamlPhpUser[]
}

export interface SimpleSamlPhp {
  /** `http://localhost:<port>`. */
  origin: string
  entityId: string
  /** The IdP's metadata, as it serves it. */
  metadataXml: string
  /** The IdP's signing certificate, PEM. */
  certificate: string
  /** The SingleSignOnService (HTTP-Redirect). */
  ssoUrl: string
  stop(): Promise<void>
}

/** Throws, with the apt-get command to run, when php, SimpleSAMLphp or a PHP module it needs is missing. */
function checkInstalled(): void {
  const probe = spawnSync("php", ["-r", 'echo extension_loaded("dom") && extension_loaded("mbstring") ? "ok" : "missing";'], { encoding: "utf8" })
  const problem =
    probe.error !== undefined
      ? "php is missing"
      : probe.stdout !== "ok"
        ? "PHP's dom or mbstring module is missing (php8.2-xml, php8.2-mbstring)"
        : !existsSync(join(www, "index.php"))
          ? `SimpleSAMLphp is missing (${www})`
          : undefined
  if (problem) throw new Error(`The SimpleSAMLphp tests need a real IdP, and ${problem}. Install it: ${install}`)
}

/** `value` as a PHP literal: strings single-quoted, objects and arrays as arrays. */
function php(value: unknown): string {
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`
  if (typeof value === "number" || typeof value === "boolean") return JSON.stringify(value)
  if (value === null) return "null"
  if (Array.isArray(value)) return `[${value.map(php).join(", ")}]`
  return `[${Object.entries(value as object).map(([key, item]) => `\n  ${php(key)} => ${php(item)}`).join(",")}\n]`
}

/** Writes the IdP's configuration tree into `dir`. */
async function configure(dir: string, origin: string, entityId: string, options: SimpleSamlPhpOptions): Promise<string> {
  for (const sub of ["config", "metadata", "cert", "data", "tmp", "log"]) await mkdir(join(dir, sub))
  const key = await keyPair("simplesamlphp-test-idp")
  await writeFile(join(dir, "cert", "idp.key"), key.privateKey, { mode: 0o600 })
  await writeFile(join(dir, "cert", "idp.crt"), key.certificate)
  const config = {
    // Absolute, with the host the browser uses; php -S serves www/ at the root.
    baseurlpath: `${origin}/`,
    // Relative paths would resolve against /usr/share/simplesamlphp, not the config directory.
    certdir: `${dir}/cert/`,
    metadatadir: `${dir}/metadata/`,
    loggingdir: `${dir}/log/`,
    datadir: `${dir}/data/`,
    tempdir: `${dir}/tmp`,
    secretsalt: randomBytes(24).toString("hex"),
    "auth.adminpassword": randomBytes(24).toString("hex"),
    "admin.protectmetadata": false,
    technicalcontact_name: "Test",
    technicalcontact_email: "test@example.org",
    timezone: "UTC",
    // SimpleSAML\Logger::WARNING, to stderr, which this harness keeps for its error messages.
    "logging.level": 4,
    "logging.handler": "stderr",
    "enable.saml20-idp": true,
    "enable.shib13-idp": false,
    // exampleauth ships disabled.
    "module.enable": { exampleauth: true, core: true, saml: true, admin: true },
    "store.type": "phpsession",
    "session.phpsession.savepath": `${dir}/tmp`,
    // Plain http on loopback: a Secure cookie would never come back.
    "session.cookie.secure": false,
    "session.cookie.samesite": null,
    "language.default": "en",
    production: false,
  }
  const users = Object.fromEntries(
    options.users.map((user) => {
      if (user.username.includes(":")) throw new Error(`SimpleSAMLphp usernames cannot contain ":": ${user.username}`)
      return [`${user.username}:${user.password}`, user.attributes]
    }),
  )
  const idp = {
    host: "__DEFAULT__",
    privatekey: "idp.key",
    certificate: "idp.crt",
    auth: "example-userpass",
    "signature.algorithm": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    NameIDFormat: emailAddressFormat,
    "simplesaml.nameidattribute": "email",
    "attributes.NameFormat": "urn:oasis:names:tc:SAML:2.0:attrname-format:basic",
  }
  const sps = Object.fromEntries(
    options.sp.map((sp) => [
      sp.entityId,
      {
        AssertionConsumerService: [{ Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST", Location: sp.acsUrl }],
        NameIDFormat: emailAddressFormat,
        "simplesaml.nameidattribute": "email",
        "validate.authnrequest": sp.validateAuthnRequest === true,
        ...(sp.encryptAssertion ? { "assertion.encryption": true } : {}),
        // certData serves both uses: checking the SP's signatures and encrypting to it.
        ...(sp.certificate ? { certData: sp.certificate.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "") } : {}),
      },
    ]),
  )
  await writeFile(join(dir, "config", "config.php"), `<?php\n$config = ${php(config)};\n`)
  await writeFile(join(dir, "config", "authsources.php"), `<?php\n$config = ${php({ admin: ["core:AdminPassword"], "example-userpass": { 0: "exampleauth:UserPass", ...users } })};\n`)
  await writeFile(join(dir, "metadata", "saml20-idp-hosted.php"), `<?php\n$metadata[${php(entityId)}] = ${php(idp)};\n`)
  await writeFile(join(dir, "metadata", "saml20-sp-remote.php"), `<?php\n${Object.entries(sps).map(([id, sp]) => `$metadata[${php(id)}] = ${php(sp)};`).join("\n")}\n`)
  return key.certificate
}

/** Starts SimpleSAMLphp on a free port; resolves once it serves its metadata. */
export async function startSimpleSamlPhp(options: SimpleSamlPhpOptions): Promise<SimpleSamlPhp> {
  checkInstalled()
  const port = await freePort()
  const origin = `http://localhost:${port}`
  const entityId = `${origin}/saml2/idp/metadata.php`
  const dir = await mkdtemp(join(tmpdir(), "sesame-simplesamlphp-"))
  const certificate = await configure(dir, origin, entityId, options).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true })
    throw error
  })

  const { PHP_CLI_SERVER_WORKERS: _workers, ...env } = process.env
  const child = spawn("php", ["-S", `127.0.0.1:${port}`, "-t", www], { env: { ...env, SIMPLESAMLPHP_CONFIG_DIR: join(dir, "config") }, stdio: ["ignore", "ignore", "pipe"] })
  // php -S logs every request: keep the end, for the messages below.
  let log = ""
  child.stderr.on("data", (chunk: Buffer) => void (log = (log + chunk.toString()).slice(-8000)))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))

  async function stop(): Promise<void> {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM")
      await exited
    }
    await rm(dir, { recursive: true, force: true })
  }

  // Asked on 127.0.0.1, where it listens (Node may try ::1 first for localhost).
  const metadataUrl = `http://127.0.0.1:${port}/saml2/idp/metadata.php`
  const deadline = Date.now() + 15_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop()
      throw new Error(`php -S exited before SimpleSAMLphp answered:\n${log}`)
    }
    const response = await fetch(metadataUrl, { signal: AbortSignal.timeout(2000) }).catch(() => undefined)
    if (response?.ok) {
      const metadataXml = await response.text()
      return { origin, entityId, metadataXml, certificate, ssoUrl: `${origin}/saml2/idp/SSOService.php`, stop }
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`SimpleSAMLphp did not serve its metadata at ${metadataUrl} within 15 s (HTTP ${response?.status ?? "no answer"}):\n${log}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
