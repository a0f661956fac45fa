/**
 * Server side of an island: the widget is rendered on its own (as the browser will hydrate it, with
 * the same identifierPrefix) and wrapped in a marker element that src/entry.ts finds.
 */
import { createContext, createElement, useContext, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import type { IslandName } from '../../src/islands/registry.js';
import type { Hydrate } from '../../src/islands/hydrate.js';

/** Collects the islands a page renders, so the document includes the loader only where needed. */
export const IslandCollector = createContext<Set<IslandName> | null>(null);

/**
 * An island's markup by its component and what the markup depends on (its props, or its
 * `markupKey`): the render is pure (ids come from identifierPrefix), and most islands draw the
 * same markup on every page of a site (the discount popup's nested renderToString was most of a
 * city page's render time). The most recently used few are kept: an island whose markup differs
 * on every page must not fill a render thread.
 */
const drawn = new Map<string, { component: unknown; html: string }>();
const DRAWN_KEPT = 32;

function islandHtml<P extends object>(name: IslandName, component: ComponentType<P>, props: P, markupKey: string): string {
  const key = `${name}\u0000${markupKey}`;
  let kept = drawn.get(key);
  drawn.delete(key);
  // The component is compared too: npm run dev reloads the templates under the same names.
  if (kept?.component !== component) kept = { component, html: renderToString(createElement(component, props), { identifierPrefix: `${name}-` }) };
  drawn.set(key, kept);
  if (drawn.size > DRAWN_KEPT) drawn.delete(drawn.keys().next().value!);
  return kept.html;
}

export function Island<P extends object>({ name, component, props, hydrate, markupKey }: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
  hydrate: Hydrate;
  /** The props the server markup depends on, when not all of them (the rest matter only once it runs). */
  markupKey?: Partial<P>;
}) {
  useContext(IslandCollector)?.add(name);
  const json = JSON.stringify(props);
  const html = islandHtml(name, component, props, markupKey ? JSON.stringify(markupKey) : json);
  return (
    <div
      data-island={name}
      data-hydrate={hydrate}
      data-props={json}
      className="contents"
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
