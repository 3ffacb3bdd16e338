/** The types of build.mjs, for the tests that import it (docs/test). */
/** Builds the site into docs/build/dist unless the one on disk is current (`force` rebuilds anyway); returns that folder. */
export declare function buildSite(options?: { force?: boolean }): Promise<string>
