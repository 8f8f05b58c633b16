/**
 * `npm test`: every stage of the suite, in an order that keeps both cores of a
 * small machine busy, then each stage's wall time and the ten slowest files.
 *
 * Stages of one group run side by side, their output kept and printed whole
 * when each ends; a group of one prints as it goes. A failed group stops the
 * run (what is left is reported as not run) and the exit code is non-zero.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatSummary, junitFileTimes, vitestFileTimes, type FileTime, type StageTime } from './test-report.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reports = path.join(root, '.tmp', 'test-reports');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

interface Stage {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  /** Where the stage leaves its per-file times, and how to read them. */
  report?: { file: string; read: (text: string) => FileTime[] };
}

const vitestStage = (name: string, args: string[]): Stage => {
  const file = path.join(reports, `${name}.json`);
  return {
    name,
    command: bin('vitest'),
    args: ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    report: { file, read: (text) => vitestFileTimes(name, text, root) },
  };
};

const functionsReport = path.join(reports, 'functions.xml');

/**
 * The groups, in order. The type check, the PostgreSQL check, the Deno
 * function tests and Chromium's install check are light and independent; the
 * unit and SQL files run two at a time (vitest.config.ts) and keep both cores
 * busy; robustness restarts the test PostgreSQL, so it runs beside nothing
 * that uses it: the journeys, two files at a time on PGlite
 * (e2e/vitest.config.ts), each mostly waiting on its page.
 */
const groups: Stage[][] = [
  [
    { name: 'typecheck', command: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
    { name: 'postgres check', command: process.execPath, args: ['scripts/check-postgres-extensions.mjs'] },
    {
      name: 'functions',
      command: path.join(root, 'node_modules', 'deno', 'deno'),
      args: ['test', '--config', 'deno.json', '--allow-env', '--allow-net', `--junit-path=${functionsReport}`],
      cwd: path.join(root, 'supabase', 'functions'),
      report: { file: functionsReport, read: (text) => junitFileTimes('functions', text, 'supabase/functions/') },
    },
    { name: 'chromium', command: 'bash', args: ['scripts/ensure-chromium.sh'] },
  ],
  [vitestStage('unit', ['--project', 'unit'])],
  [vitestStage('robustness', ['--project', 'robustness']), vitestStage('e2e', ['--config', 'e2e/vitest.config.ts'])],
];

interface Outcome {
  ok: boolean;
  seconds: number;
  output: string;
}

function run(stage: Stage, quiet: boolean): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(stage.command, stage.args, {
      cwd: stage.cwd ?? root,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') },
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const done = (ok: boolean, extra = '') => resolve({ ok, seconds: (performance.now() - started) / 1000, output: output + extra });
    child.on('error', (error) => done(false, `\n${stage.name}: could not start ${stage.command}: ${error.message}\n`));
    child.on('exit', (code, signal) => done(code === 0, code === 0 ? '' : `\n${stage.name} ended with ${signal ?? `exit code ${code}`}\n`));
  });
}

async function fileTimes(stage: Stage): Promise<FileTime[]> {
  if (!stage.report) return [];
  try {
    return stage.report.read(await readFile(stage.report.file, 'utf8'));
  } catch {
    return [];
  }
}

async function main(): Promise<number> {
  const started = performance.now();
  await rm(reports, { recursive: true, force: true });
  await mkdir(reports, { recursive: true });
  const times: StageTime[] = [];
  const files: FileTime[] = [];
  let failed = false;
  for (const group of groups) {
    if (failed) {
      times.push(...group.map((stage) => ({ name: stage.name, seconds: 0, ok: null })));
      continue;
    }
    const quiet = group.length > 1;
    if (quiet) console.log(`\n▶ ${group.map((stage) => stage.name).join(', ')} (side by side)`);
    const outcomes = await Promise.all(
      group.map(async (stage) => {
        if (!quiet) console.log(`\n▶ ${stage.name}`);
        const outcome = await run(stage, quiet);
        if (quiet) process.stdout.write(`\n── ${stage.name} (${outcome.ok ? 'passed' : 'FAILED'}) ──\n${outcome.output}`);
        return outcome;
      }),
    );
    for (const [index, stage] of group.entries()) {
      times.push({ name: stage.name, seconds: outcomes[index]!.seconds, ok: outcomes[index]!.ok });
      files.push(...(await fileTimes(stage)));
    }
    failed = outcomes.some((outcome) => !outcome.ok);
  }
  console.log(formatSummary(times, (performance.now() - started) / 1000, files));
  return failed ? 1 : 0;
}

process.exitCode = await main();
