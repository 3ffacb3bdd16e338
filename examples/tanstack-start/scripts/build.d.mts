/** Types of scripts/build.mjs, for the tests that build the app through it. */
export declare const appDir: string
export declare function bin(pkg: string, name: string): string
export declare function buildIfChanged(): string
