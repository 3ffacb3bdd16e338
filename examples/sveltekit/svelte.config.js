import adapter from "@sveltejs/adapter-node"

/** @type {import("@sveltejs/kit").Config} */
export default {
  kit: {
    // `node build/index.js`: a Node.js server. Set ORIGIN (or PROTOCOL_HEADER and HOST_HEADER
    // behind a proxy) when you run it; see the README.
    adapter: adapter(),
  },
}
