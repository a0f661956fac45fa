/** The CMS's last check before saving (cms/app/check.ts) refuses what `npm run check` refuses in a file. */
import { describe, expect, it } from 'vitest';
import { entryProblems } from '../../cms/app/check.js';

describe('the check before the CMS saves an entry', () => {
  it('names each text that holds a control character, the Markdown body included', () => {
    const problems = entryProblems({ file: 'content/legal/privacy-policy.md', kind: 'legal' }, {
      title: 'Privacy\u0007 Policy', body: 'We keep\u001b[31m your data safe.',
    });
    expect(problems.filter((p) => p.includes('control character'))).toEqual([
      'title: control character U+0007, which no page can show (delete it (it usually comes with text pasted from a terminal or another program); spaces and line breaks are fine)',
      'body: control character U+001B, which no page can show (delete it (it usually comes with text pasted from a terminal or another program); spaces and line breaks are fine)',
    ]);
  });
});
