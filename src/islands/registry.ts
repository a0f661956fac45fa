/**
 * The islands a page can contain. Each loader is a dynamic import, so every island is its own
 * chunk and a page downloads only the code of the islands it renders (src/entry.ts).
 * templates/components/Island.tsx uses IslandName for the data-island marker.
 */
import type { ComponentType } from 'react';
import { scheduleDiscount, type DiscountTiming } from '../lib/discountSchedule.js';
import { subscribeToasts } from '../lib/toast.js';

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

/** What an island with hydrate="scheduled" gets: its props, then fetch its code early / hydrate it now. */
export type IslandSchedule = (props: object, when: { prepare(): void; open(): void }) => void;

/**
 * The islands that decide themselves when to hydrate, in code small enough for the page script
 * (no React): the discount popup loads only when it is about to open, the toasts with the first
 * toast (their live regions are in the server HTML, so what they add is still announced).
 */
export const islandSchedules: Partial<Record<IslandName, IslandSchedule>> = {
  DiscountPopup: (props, when) => scheduleDiscount((props as { texts: DiscountTiming }).texts, when),
  Toaster: (_props, when) => {
    const stop = subscribeToasts(() => {
      stop();
      when.open();
    });
  },
};
