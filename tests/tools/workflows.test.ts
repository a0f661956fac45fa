/**
 * The GitHub Actions workflows, read by GitHub's own workflow parser (@actions/workflow-parser, the
 * one behind GitHub's editor): no syntax or expression error in any of them, and every `npm run`
 * they call is a script of package.json, the same ones the tests run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/content.js';

const DIR = path.join(ROOT, '.github/workflows');
const files = readdirSync(DIR).filter((f) => f.endsWith('.yml'));
const scripts = Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

async function problems(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (!parsed.value) return errors.length ? errors : ['not a workflow'];
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  return [...errors, ...(template.errors ?? []).map((e) => e.Message)];
}

describe('the workflows', () => {
  it('include the deploy, the Supabase deploy and the hourly lead probe', () => {
    expect(files.sort()).toEqual(['deploy.yml', 'lead-probe.yml', 'supabase.yml']);
  });

  it.each(files)('%s has no error for GitHub\'s parser', async (file) => {
    expect(await problems(file, readFileSync(path.join(DIR, file), 'utf8'))).toEqual([]);
  });

  it('would see a mistake (the parser is not blind)', async () => {
    const broken = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ secretz.X }}\n';
    expect((await problems('broken.yml', broken)).join('\n')).toMatch(/Unrecognized named-value: 'secretz'/);
  });

  it.each(files)('%s runs only npm scripts that package.json has', (file) => {
    const used = [...readFileSync(path.join(DIR, file), 'utf8').matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!);
    for (const script of used) expect(scripts, `${file}: npm run ${script}`).toContain(script);
  });

  it('checks the site it just deployed with the doctor, after the deploy step', () => {
    const deploy = readFileSync(path.join(DIR, 'deploy.yml'), 'utf8');
    expect(deploy.indexOf('run: npm run doctor')).toBeGreaterThan(deploy.indexOf('command: pages deploy dist'));
    expect(deploy.indexOf('command: pages deploy dist')).toBeGreaterThan(0);
  });

  it('runs the lead probe every hour with the command the tests run', () => {
    const probe = readFileSync(path.join(DIR, 'lead-probe.yml'), 'utf8');
    expect(probe).toMatch(/cron: '\d+ \* \* \* \*'/);
    expect(probe).toContain('run: npm run lead-probe');
  });
});
