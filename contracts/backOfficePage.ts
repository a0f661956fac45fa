/**
 * The HTML page of a back-office app (/admin, /leads; cms/adminPage.ts, staff/inboxPage.ts): never
 * indexed, titled "<app> | <brand>", the site's icon, then the app's own head and body. The app
 * draws every screen; the page is not one of the site's.
 */
export function backOfficePage(page: { title: string; brandName: string; meta?: string[]; head: string[]; body: string }): string {
  return `<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
${[...(page.meta ?? []), `<title>${page.title} | ${page.brandName.replace(/[<>&"]/g, '')}</title>`].join('\n')}
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${page.head.join('\n')}
</head>
<body>${page.body}</body>
</html>
`;
}
