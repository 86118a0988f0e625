import { XMLParser } from 'fast-xml-parser';

/**
 * XML as a namespace-aware service reads it, for the carrier doubles: each element with its namespace resolved from
 * the xmlns declarations in scope, its attributes and children in document order, and its direct text. ASP.NET and
 * WCF bind by local name and namespace, so the doubles decide on `local` and `ns`, never on a prefix.
 */
export interface XmlElement {
  /** the name as written, with its prefix (`soap:Body`: for messages) */
  qname: string;
  local: string;
  /** namespace URI ('' when none) */
  ns: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** the concatenated text directly inside the element (text and CDATA) */
  text: string;
}

const orderedParser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

/** The root element of well-formed XML (check it with XMLValidator first); undefined when there is none. */
export function parseXmlElement(xml: string): XmlElement | undefined {
  return elementsOf(orderedParser.parse(xml) as OrderedNode[], {})[0];
}

function elementsOf(nodes: OrderedNode[], scope: Record<string, string>): XmlElement[] {
  const out: XmlElement[] = [];
  for (const node of nodes) {
    const qname = Object.keys(node).find((k) => k !== ':@');
    if (!qname || qname.startsWith('?') || qname.startsWith('#')) continue;
    const attributes = node[':@'] ?? {};
    const inner: Record<string, string> = { ...scope };
    for (const [k, v] of Object.entries(attributes)) {
      if (k === 'xmlns') inner[''] = v;
      else if (k.startsWith('xmlns:')) inner[k.slice(6)] = v;
    }
    const colon = qname.indexOf(':');
    const content = (node[qname] as OrderedNode[] | undefined) ?? [];
    out.push({
      qname,
      local: colon < 0 ? qname : qname.slice(colon + 1),
      ns: inner[colon < 0 ? '' : qname.slice(0, colon)] ?? '',
      attributes,
      children: elementsOf(content, inner),
      text: content.map((c) => ('#text' in c ? String(c['#text']) : '')).join(''),
    });
  }
  return out;
}
