/** JSON-LD in a script element, escaped so no text inside can close the element. */

/** Nodes already written, by identity: the business node is the same object on every page of a batch. */
const written = new WeakMap<object, string>();

function serializeNode(node: object): string {
  let json = written.get(node);
  if (json === undefined) {
    json = JSON.stringify(node)
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029');
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
