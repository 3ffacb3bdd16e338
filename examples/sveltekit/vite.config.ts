import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig } from "vite"

export default defineConfig({
  plugins: [sveltekit()],
  // Installed from npm, @sesame/core sits in node_modules and Vite leaves it to Node.js at run time
  // (adapter-node keeps every `dependencies` entry external), while @sesame/sveltekit, a package
  // with the `svelte` export condition, is bundled with the app's routes and the app's SvelteKit.
  // In this repository both are linked workspace folders, which Vite would bundle; this keeps
  // @sesame/core where an installed app has it. An app of your own does not need it.
  ssr: { external: ["@sesame/core"] },
})
