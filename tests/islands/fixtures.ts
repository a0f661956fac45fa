/**
 * Island props for the unit tests, read from the real content through the site model (never copied
 * here): the texts of content/forms.yaml, the checklist rooms and the reviews settings of content/site.yaml.
 */
import { checkContent } from '../../generator/build.js';
import type { ContactFormProps } from '../../src/islands/ContactForm.js';
import type { DiscountPopupProps } from '../../src/islands/DiscountPopup.js';
import type { ChecklistTabsProps } from '../../src/islands/ChecklistTabs.js';
import type { ReviewsWidgetProps } from '../../src/islands/ReviewsWidget.js';

const model = (await checkContent({ root: process.cwd() })).model;

export const PHONE = model.site.phone.display;
export const contactTexts = model.forms.contact;
export const discountTexts = model.forms.discount;
export const checklistRooms = model.checklist.rooms;
export const contactProps: ContactFormProps = { texts: contactTexts, phone: PHONE, page: 'contact' };
export const discountProps: DiscountPopupProps = { texts: discountTexts, page: '/' };
export const checklistProps: ChecklistTabsProps = { rooms: checklistRooms.map((room) => ({ panel: `checklist-${room.id}`, label: room.label })) };
const { heading: _heading, ...reviews } = model.site.reviews;
export const reviewsProps: ReviewsWidgetProps = reviews;

/** A Storage look-alike: items are own properties, as with window.sessionStorage. */
export function fakeStorage(): Storage {
  const store = {} as Record<string, string>;
  Object.defineProperties(store, {
    getItem: { value: (key: string) => (Object.hasOwn(store, key) ? store[key] : null) },
    setItem: { value: (key: string, value: string) => { store[key] = String(value); } },
    removeItem: { value: (key: string) => { delete store[key]; } },
  });
  return store as unknown as Storage;
}
