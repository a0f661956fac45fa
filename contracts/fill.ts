/** A content text with its {placeholders} filled in ("Scheduled for {date}"); an unknown one is left as written. */
export const fill = (template: string, vars: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => vars[key] ?? whole);
