// @ts-check
import node from "@astrojs/node"
import { defineConfig } from "astro/config"

export default defineConfig({
  // Every page is rendered on request (the session differs per visitor), by a Node.js server:
  // `npm run build` writes it to dist/server/entry.mjs, which listens on HOST and PORT.
  output: "server",
  adapter: node({ mode: "standalone" }),
  security: {
    // Astro's own `checkOrigin` stays on (the default for server output): a form post whose Origin
    // is not the request's gets 403 before any page or endpoint runs. The Node adapter takes the
    // request's host from its Host header only when it is one of `allowedDomains`; otherwise the
    // request's URL is http://localhost (without the port), no post from http://localhost:3000
    // passes that check, and Sesame's URLs lose the port. Any port of these hosts: add your public
    // host before you deploy ({ hostname: "app.example.com", protocol: "https" }).
    allowedDomains: [{ hostname: "localhost" }, { hostname: "127.0.0.1" }],
  },
  vite: {
    // Installed from npm, @sesame/core sits in node_modules and is left to Node.js at run time. In
    // this repository it is a linked workspace folder, which Vite would bundle; this keeps it where
    // an installed app has it. An app of your own does not need this line.
    ssr: { external: ["@sesame/core"] },
  },
})
