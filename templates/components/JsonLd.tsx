/** JSON-LD in a script element, escaped so no text inside can close the element. */

/** Nodes already written, by identity: the business node is the same object on every page of a batch. */
const written = new WeakMap<object, string>();

const ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** JSON made safe inside a script element: what could end it or start markup, as JSON escapes. */
export function escapeJsonLd(json: string): string {
  return /[<>&\u2028\u2029]/.test(json) ? json.replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]!) : json;
}

function serializeNode(node: object): string {
  let json = written.get(node);
  if (json === undefined) {
    json = escapeJsonLd(JSON.stringify(node));
    written.set(node, json);
  }
  return json;
}

/** The same text as JSON.stringify of the whole graph, written node by node. */
function serializeJsonLd(nodes: readonly object[]): string {
  return `{"@context":"https://schema.org","@graph":[${nodes.map(serializeNode).join(',')}]}`;
}

export function JsonLd({ nodes }: { nodes: readonly object[] }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(nodes) }} />;
}
