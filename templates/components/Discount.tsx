import type { DiscountTexts } from '../../contracts/content.js';
import DiscountPopup from '../../src/islands/DiscountPopup.js';
import Toaster from '../../src/islands/Toaster.js';
import { Island } from './Island.js';

/** The $25 discount popup and the toasts it reports to. */
export function Discount({ texts, page, closeLabel }: { texts: DiscountTexts; page: string; closeLabel: string }) {
  return (
    <>
      <Island name="DiscountPopup" component={DiscountPopup} props={{ texts, page }} hydrate="scheduled" />
      <Island name="Toaster" component={Toaster} props={{ closeLabel }} hydrate="scheduled" />
    </>
  );
}
