/** The types of paths.mjs, for the tests that import it (docs/test). */
export declare const docsDir: string
export declare const root: string
export declare const buildDir: string
export declare const sourceDir: string
export declare const distDir: string
/** docs/**\/*.md, relative to docs/: the site's own pages. */
export declare function docPages(dir?: string): string[]
/** The READMEs the site includes, relative to the repository. */
export declare function readmes(): string[]
/** A hash of everything the site is made from. */
export declare function fingerprint(): string
