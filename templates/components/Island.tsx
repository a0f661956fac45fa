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

export function Island<P extends object>({ name, component, props, hydrate }: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
  hydrate: Hydrate;
}) {
  useContext(IslandCollector)?.add(name);
  const html = renderToString(createElement(component, props), { identifierPrefix: `${name}-` });
  return (
    <div
      data-island={name}
      data-hydrate={hydrate}
      data-props={JSON.stringify(props)}
      className="contents"
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
