// See https://svelte.dev/docs/kit/types#app.d.ts
// `@sesame/sveltekit` adds `auth: () => Promise<Session | null>` to App.Locals itself: the
// `handle` of SvelteKitAuth sets it on every request.
declare global {
  namespace App {
    // interface Error {}
    // interface Locals {}
    // interface PageData {}
    // interface PageState {}
    // interface Platform {}
  }
}

export {}
