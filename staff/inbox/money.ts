/** Dollars as staff read them: $450, $1,250.50 (cents only when there are some). */
const WHOLE = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const CENTS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
export const formatMoney = (value: number | string) => (Number(value) % 1 ? CENTS : WHOLE).format(Number(value));
