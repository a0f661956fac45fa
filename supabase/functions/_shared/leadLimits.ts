/**
 * Longest values stored (the inputs use them as maxLength). Apart from leadRules.ts, which
 * re-exports them, because they import nothing: the forms render with them before the visitor
 * types, while zod and the rules load only then (src/lib/leadKit.ts).
 */
export const LEAD_LIMITS = { name: 100, email: 254, phone: 40, message: 5000, page: 200 } as const;
