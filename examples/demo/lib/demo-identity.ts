/**
 * Who the demo account is (`DEMO_EMAIL`, `DEMO_PASSWORD`): read in one place, by the account's
 * seeding (demo-account.ts) and by the plugins that make it the demo's admin (store.ts).
 */
export const demoAccount = {
  email: (process.env.DEMO_EMAIL ?? "demo@example.com").trim().toLowerCase(),
  password: process.env.DEMO_PASSWORD ?? "sesame-demo",
}
