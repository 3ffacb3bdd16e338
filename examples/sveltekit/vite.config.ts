import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig } from "vite"

export default defineConfig({
  plugins: [sveltekit()],
  // Installed from npm, the Sesame packages sit in node_modules, and Vite leaves them to Node.js at
  // run time (adapter-node keeps every `dependencies` entry external). In this repository they are
  // linked workspace folders, which Vite would bundle; this keeps them where an installed app has
  // them. An app of your own does not need it.
  ssr: { external: ["@sesame/core", "@sesame/sveltekit"] },
})
