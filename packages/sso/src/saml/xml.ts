/**
 * The hardened XML reading shared by the SAML code: {@link parseXml} refuses any DOCTYPE or entity
 * declaration before parsing, since SAML never needs one and they are how external entities (XXE)
 * and entity expansion ("billion laughs") get in. The rest walks the parsed document by namespace,
 * so a prefix chosen by the sender changes nothing.
 *
 * @module
 */
import { DOMParser } from "@xmldom/xmldom"

/** The XML namespaces SAML 2.0 uses. */
export const ns = {
  metadata: "urn:oasis:names:tc:SAML:2.0:metadata",
  assertion: "urn:oasis:names:tc:SAML:2.0:assertion",
  protocol: "urn:oasis:names:tc:SAML:2.0:protocol",
  dsig: "http://www.w3.org/2000/09/xmldsig#",
} as const

/**
 * Parses `xml`, refusing a DOCTYPE or entity declaration first and any well-formedness error after.
 * `refuse` builds the error to throw from a reason that quotes nothing of the input.
 */
export function parseXml(xml: string, refuse: (reason: string) => Error): Document {
  // Checked on the very string the parser gets, so no encoding trick can hide a declaration from it.
  if (/<!\s*(?:DOCTYPE|ENTITY)/i.test(xml)) throw refuse("it declares a DOCTYPE or entities, which SAML never uses")
  let wellFormed = true
  const fail = () => void (wellFormed = false)
  let doc: Document
  try {
    // xmldom 0.8 only warns about an element left open (a truncated document): that fails too.
    doc = new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } }).parseFromString(xml, "text/xml")
  } catch {
    throw refuse("it is not well-formed XML")
  }
  if (!wellFormed || !doc.documentElement) throw refuse("it is not well-formed XML")
  return doc
}

/** Whether `node` is the element `localName` in `namespace`. */
export function isElement(node: Node, namespace: string, localName: string): boolean {
  const element = node as Element
  // 1 is ELEMENT_NODE: Node.js has no global `Node` to read the constant from.
  return node.nodeType === 1 && element.namespaceURI === namespace && element.localName === localName
}

/** The child elements of `parent` named `localName` in `namespace`, in document order. */
export function children(parent: Element, namespace: string, localName: string): Element[] {
  return Array.from(parent.childNodes).filter((node): node is Element => isElement(node, namespace, localName))
}
