import type { DiscountTexts } from '../../contracts/content.js';
import DiscountPopup from '../../src/islands/DiscountPopup.js';
import Toaster from '../../src/islands/Toaster.js';
import { Island } from './Island.js';

/** The $25 discount popup and the toasts it reports to. */
export function Discount({ texts, page, closeLabel }: { texts: DiscountTexts; page: string; closeLabel: string }) {
  return (
    <>
      {/* `page` is only sent with a lead: the closed popup's markup is the same on every page. */}
      <Island name="DiscountPopup" component={DiscountPopup} props={{ texts, page }} markupKey={{ texts }} hydrate="scheduled" />
      <Island name="Toaster" component={Toaster} props={{ closeLabel }} hydrate="scheduled" />
    </>
  );
}
