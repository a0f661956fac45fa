/**
 * The GitHub Actions workflows, read by GitHub's own workflow parser (@actions/workflow-parser, the
 * one behind GitHub's editor): no syntax or expression error in any of them, and every `npm run`
 * they call is a script of package.json, the same ones the tests run. Then deploy.yml fed lists of
 * changed files: which gate tools/changedFiles.mjs picks, and which jobs run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { data, Evaluator, Lexer, Parser } from '@actions/expressions';
import { truthy } from '@actions/expressions/result';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { DEPLOY_WORKFLOW, GATE_JOB } from '../../cms/app/publishState.js';
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

/**
 * Which jobs of deploy.yml run, as GitHub decides it: each job's `if` evaluated by GitHub's own
 * expression engine (@actions/expressions, which the parser above uses) with the results of the
 * jobs it needs, `success()` added when the condition names no status function, and the "Checks
 * passed" job's script run by bash with its env. `gate` is what the changes job found; the jobs in
 * `fail` fail when they run.
 */
type Result = 'success' | 'failure' | 'skipped';
interface WorkflowJob { needs?: string | string[]; if?: string | boolean; steps: { run?: string; env?: Record<string, string> }[] }
const STATUS = ['success', 'failure', 'always', 'cancelled'];

function jobResults(event: { name: string; ref: string }, gate: string, fail: string[] = []): Record<string, Result> {
  const jobs = (YAML.parse(readFileSync(path.join(DIR, 'deploy.yml'), 'utf8')) as { jobs: Record<string, WorkflowJob> }).jobs;
  const results: Record<string, Result> = {};
  const needsOf = (job: WorkflowJob) => (job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs]);
  const context = (needs: string[]) => ({
    github: { event_name: event.name, ref: event.ref, sha: 'abc123' }, vars: {}, secrets: {}, env: {}, inputs: {},
    needs: Object.fromEntries(needs.map((n) => [n, { result: results[n], outputs: n === 'changes' && results[n] === 'success' ? { gate } : {} }])),
  });
  const evaluate = (expression: string, needs: string[]) => {
    const results_ = needs.map((n) => results[n]);
    const status: [string, () => boolean][] = [
      ['success', () => results_.every((r) => r === 'success')], ['failure', () => results_.some((r) => r === 'failure')],
      ['always', () => true], ['cancelled', () => false],
    ];
    const functions = new Map(status.map(([name, call]) => [name, { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(call()) }]));
    const ast = new Parser(new Lexer(expression).lex().tokens, ['github', 'needs', 'vars', 'secrets', 'env', 'inputs'], [...functions.values()]).parse();
    return new Evaluator(ast, JSON.parse(JSON.stringify(context(needs)), data.reviver) as data.Dictionary, functions).evaluate();
  };
  const template = (text: string, needs: string[]) => text.replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => evaluate(e, needs).coerceString());
  const pending = Object.keys(jobs);
  while (pending.length) {
    const id = pending.find((j) => needsOf(jobs[j]!).every((n) => n in results));
    if (!id) throw new Error(`deploy.yml: a job needs a job that does not exist: ${pending.join(', ')}`);
    pending.splice(pending.indexOf(id), 1);
    const job = jobs[id]!;
    const needs = needsOf(job);
    let condition = String(job.if ?? 'success()').replace(/^\s*\$\{\{(.*)\}\}\s*$/s, '$1');
    if (!STATUS.some((f) => new RegExp(`\\b${f}\\(`).test(condition))) condition = `success() && (${condition})`;
    if (!truthy(evaluate(condition, needs))) {
      results[id] = 'skipped';
      continue;
    }
    results[id] = fail.includes(id) ? 'failure' : 'success';
    // The verdict job decides in its own script: run it.
    if (id === 'checks') {
      for (const step of job.steps) {
        const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, template(v, needs)]));
        const ran = spawnSync('bash', ['-eo', 'pipefail', '-c', step.run ?? ''], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
        if (ran.status !== 0) results[id] = 'failure';
      }
    }
  }
  return results;
}

const ran = (results: Record<string, Result>) => Object.keys(results).filter((j) => results[j] !== 'skipped');
const PUSH = { name: 'push', ref: 'refs/heads/main' };
const EDITORIAL_PR = { name: 'pull_request', ref: 'refs/pull/7/merge' }; // the content manager's cms/… branch

/** A repository with one commit of every kind of file; `change` commits the files given on top and asks tools/changedFiles.mjs. */
function classifierRepo() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'changed-files-'));
  const dir = path.join(tmp, 'repo');
  mkdirSync(dir);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  git('init', '-q');
  for (const file of ['content/cities/colma.yaml', 'content/images/cities/colma.svg', 'content/schemas/city.json', 'templates/pages/CityPage.tsx', 'package-lock.json', '.github/workflows/deploy.yml']) write(file, 'v1\n');
  git('add', '-A');
  git('commit', '-qm', 'base');
  const base = git('rev-parse', 'HEAD');
  return {
    base,
    change(files: string[], from = base) {
      git('checkout', '-q', base);
      for (const file of files) write(file, `changed ${file}\n`);
      git('add', '-A');
      git('commit', '-qm', 'change', '--allow-empty');
      const out = path.join(tmp, 'github-output');
      writeFileSync(out, '');
      const printed = execFileSync(process.execPath, [path.join(ROOT, 'tools/changedFiles.mjs'), from, git('rev-parse', 'HEAD')], { cwd: dir, env: { ...process.env, GITHUB_OUTPUT: out }, encoding: 'utf8' });
      return { gate: /^gate=(\w+)$/m.exec(readFileSync(out, 'utf8'))?.[1], printed };
    },
    remove: () => rmSync(tmp, { recursive: true, force: true }),
  };
}

describe('deploy.yml: the changed files choose the gate, in one workflow', () => {
  const repo = classifierRepo();
  afterAll(() => repo.remove());

  const CONTENT_ONLY = ['content/cities/fremont.yaml', 'content/images/cities/fremont.svg', 'content/cities/colma.yaml'];
  const ALL_JOBS = ['changes', 'gate', 'test', 'checks', 'deploy'];

  it.each<[string, string, string[], string[]]>([
    ['content only (a new city and its picture, an edited city)', 'content', ['changes', 'gate', 'checks', 'deploy'], CONTENT_ONLY],
    ['content plus a template', 'full', ALL_JOBS, [...CONTENT_ONLY, 'templates/pages/CityPage.tsx']],
    ['the lockfile', 'full', ALL_JOBS, ['package-lock.json']],
    ['a workflow file', 'full', ALL_JOBS, ['.github/workflows/deploy.yml']],
    ['a generated schema under content/', 'full', ALL_JOBS, ['content/schemas/city.json']],
  ])('a push to main changing %s → the %s gate; the jobs that run: %j', (_, gate, jobs, files) => {
    const found = repo.change(files);
    expect(found.gate).toBe(gate);
    const results = jobResults(PUSH, found.gate!);
    expect(ran(results)).toEqual(jobs);
    expect(results.checks).toBe('success');
    expect(results.deploy).toBe('success');
  });

  it('the hourly run (scheduled articles) builds and deploys the branch again: the content gate when its commit passed before, the suite when not, nothing on a failure', () => {
    const SCHEDULE = { name: 'schedule', ref: 'refs/heads/main' };
    expect(ran(jobResults(SCHEDULE, 'content'))).toEqual(['changes', 'gate', 'checks', 'deploy']);
    expect(ran(jobResults(SCHEDULE, 'full'))).toEqual(ALL_JOBS);
    expect(jobResults(SCHEDULE, 'content', ['gate']).deploy).toBe('skipped');
    const workflow = YAML.parse(readFileSync(path.join(DIR, 'deploy.yml'), 'utf8')) as { on: { schedule?: { cron: string }[] } };
    // Hourly, so an article dated for a time is live within the hour after it (docs/going-live.md).
    expect(workflow.on.schedule?.map((s) => s.cron)).toEqual([expect.stringMatching(/^\d+ \* \* \* \*$/)]);
  });

  it('says why: the files that are not content', () => {
    expect(repo.change([...CONTENT_ONLY, 'package-lock.json']).printed).toMatch(/^Full test suite: not content: package-lock\.json \(/);
    expect(repo.change(CONTENT_ONLY).printed).toMatch(/^Content gate: 3 content files \(/);
  });

  it('takes the full suite when it cannot tell: no commit that passed before, or one this clone does not have', () => {
    expect(repo.change(CONTENT_ONLY, '').gate).toBe('full');
    expect(repo.change(CONTENT_ONLY, '0000000000000000000000000000000000000000').gate).toBe('full');
    expect(repo.change(CONTENT_ONLY, 'f'.repeat(40)).gate).toBe('full');
  });

  it('gives the content manager\'s editorial pull requests the same fast gate, and deploys nothing from them', () => {
    const results = jobResults(EDITORIAL_PR, repo.change(CONTENT_ONLY).gate!);
    expect(ran(results)).toEqual(['changes', 'gate', 'checks']);
    expect(results.checks).toBe('success');
  });

  it('leaves no required check pending: "Checks passed" always ends, and fails whenever something it needs failed', () => {
    const cases: [string, string[]][] = [['content', ['gate']], ['full', ['test']], ['full', ['gate']], ['content', ['changes']]];
    for (const [gate, fail] of cases) {
      const results = jobResults(PUSH, gate, fail);
      expect(results.checks, `${gate}, ${fail.join()} failed`).toBe('failure');
      expect(results.deploy, `${gate}, ${fail.join()} failed`).toBe('skipped');
    }
  });

  it('names the content gate job as the content manager\'s publish panel looks for it', () => {
    const workflow = YAML.parse(readFileSync(path.join(DIR, DEPLOY_WORKFLOW), 'utf8')) as { jobs: Record<string, { name?: string }> };
    expect(workflow.jobs.gate?.name).toBe(GATE_JOB);
  });

  it('never takes "content" for a run where the suite should have run but was skipped', () => {
    // The classifier said full, yet the suite did not run (say, a condition edited by mistake): no pass.
    const jobs = jobResults(PUSH, 'neither');
    expect(jobs.test).toBe('skipped');
    expect(jobs.checks).toBe('failure');
  });
});
