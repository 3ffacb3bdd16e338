/** Types of scripts/providers-doc.mjs, for the test that renders the page from the sources. */
export declare const pagePath: string
export declare function remarksOf(source: string): string[]
export declare function renderProvidersPage(
  providers: {
    config: { id: string; name: string; type: string; issuer?: string; authorization?: string | { url?: string }; client?: { token_endpoint_auth_method?: string } }
    remarks: string[]
    factoryName: string
  }[],
  envName: (id: string) => string,
): string
