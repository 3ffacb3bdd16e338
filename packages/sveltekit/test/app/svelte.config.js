/**
 * The test app of @sesame/sveltekit's own tests, built with `vite build` and driven in-process
 * through SvelteKit's `Server` (test/kit.ts). No adapter: the tests use SvelteKit's output as it
 * is. SvelteKit's own CSRF check is off (`trustedOrigins: ["*"]`) so that the tests reach Sesame's
 * same-origin check behind it; examples/sveltekit keeps it on, and its tests show it refusing.
 */
export default {
  kit: {
    csrf: { trustedOrigins: ["*"] },
  },
}
