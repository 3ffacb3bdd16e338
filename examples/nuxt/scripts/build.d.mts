/** Types of scripts/build.mjs, for the tests that build the app through it. */
export declare const appDir: string
export declare function buildIfChanged(): string
export declare function checkNode(): void
