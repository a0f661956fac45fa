/**
 * Longest values stored (the inputs use them as maxLength), and the names of the attribution
 * fields. Apart from leadRules.ts, which re-exports them, because they import nothing: the forms
 * render with them before the visitor types, while zod and the rules load only then
 * (src/lib/leadKit.ts), and the inbox names the fields without loading zod.
 */
export const LEAD_LIMITS = { name: 100, email: 254, phone: 40, message: 5000, page: 200 } as const;

/** The campaign parameters and ad click ids a lead keeps (issue 31; leadRules.ts holds their rules). */
export const UTM_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export const CLICK_IDS = ['gclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid'] as const;
/** The two touches, as the columns' prefixes: first_…, last_…. */
export const TOUCHES = ['first', 'last'] as const;
export type Touch = (typeof TOUCHES)[number];
export type UtmParam = (typeof UTM_PARAMS)[number];
export type ClickId = (typeof CLICK_IDS)[number];
