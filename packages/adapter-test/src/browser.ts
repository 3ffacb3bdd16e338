/**
 * The browser of the suites that go through `Auth()`: its cookies.
 *
 * @module
 */

/** A browser's cookies: applies `Set-Cookie` (deletions included) and sends `Cookie`. */
export class CookieJar {
  readonly cookies = new Map<string, string>()

  apply(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";")
      const eq = pair.indexOf("=")
      const name = pair.slice(0, eq).trim()
      const maxAge = attributes.map((a) => a.trim().toLowerCase()).find((a) => a.startsWith("max-age="))
      if (maxAge !== undefined && Number(maxAge.slice("max-age=".length)) <= 0) this.cookies.delete(name)
      else this.cookies.set(name, pair.slice(eq + 1).trim())
    }
  }

  get(name: string): string | undefined {
    const value = this.cookies.get(name)
    return value === undefined ? undefined : decodeURIComponent(value)
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
}
