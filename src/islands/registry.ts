/**
 * The islands a page can contain. Each loader is a dynamic import, so every island is its own
 * chunk and a page downloads only the code of the islands it renders (src/entry.ts).
 * templates/components/Island.tsx uses IslandName for the data-island marker.
 */
import type { ComponentType } from 'react';

export const islandLoaders = {
  ContactForm: () => import('./ContactForm.js'),
  DiscountPopup: () => import('./DiscountPopup.js'),
  ChecklistTabs: () => import('./ChecklistTabs.js'),
  Toaster: () => import('./Toaster.js'),
  ReviewsWidget: () => import('./ReviewsWidget.js'),
} satisfies Record<string, () => Promise<{ default: ComponentType<any> }>>;

export type IslandName = keyof typeof islandLoaders;

export function isIslandName(name: string): name is IslandName {
  return Object.prototype.hasOwnProperty.call(islandLoaders, name);
}
