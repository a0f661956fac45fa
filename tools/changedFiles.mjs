// @ts-check
/**
 * Which gate a commit takes in .github/workflows/deploy.yml: `content` when every file it changes
 * (since the last commit that passed) is the site's content, `full` (the whole test suite)
 * otherwise. docs/editing.md says what counts as content.
 *
 *   node tools/changedFiles.mjs <base> <head>
 *
 * lists the files that differ between the two commits' trees (git diff, renames as a deletion and
 * an addition) and writes `gate=content|full` to $GITHUB_OUTPUT when GitHub Actions sets it. No
 * base (a first push, a manual run, a base git cannot find) means the full suite: when in doubt,
 * test everything.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A content file: under content/, but not content/schemas/ (generated from contracts/content.ts by
 * `npm run schemas`; a change there without a change to the model is a mistake the full suite sees).
 * @param {string} file a path relative to the repository, with forward slashes
 */
export const isContent = (file) => file.startsWith('content/') && !file.startsWith('content/schemas/') && !file.split('/').includes('..');

/**
 * @param {readonly string[]} files the changed files
 * @returns {{ gate: 'content' | 'full', reason: string }}
 */
export function classify(files) {
  if (files.length === 0) return { gate: 'full', reason: 'no changed files known' };
  const other = files.filter((f) => !isContent(f));
  if (other.length === 0) return { gate: 'content', reason: `${files.length} content file${files.length === 1 ? '' : 's'}` };
  const shown = other.slice(0, 5).join(', ') + (other.length > 5 ? ` and ${other.length - 5} more` : '');
  return { gate: 'full', reason: `not content: ${shown}` };
}

/**
 * The files that differ between two commits, or undefined when there is no usable base.
 * @param {string | undefined} base
 * @param {string} head
 * @param {string} [cwd]
 */
export function changedFiles(base, head, cwd = process.cwd()) {
  if (!base || /^0+$/.test(base)) return undefined;
  try {
    const out = execFileSync('git', ['diff', '--name-only', '--no-renames', '-z', base, head, '--'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
    return out.split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [base, head = 'HEAD'] = process.argv.slice(2);
  const files = changedFiles(base, head);
  const { gate, reason } = files ? classify(files) : { gate: 'full', reason: base ? `${base} is not in this clone's history` : 'no commit that passed before' };
  console.log(`${gate === 'content' ? 'Content gate' : 'Full test suite'}: ${reason} (${base || 'no base'}..${head})`);
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `gate=${gate}\n`);
}
