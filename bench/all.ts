import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { budgetText, machineDescription, passOf, RESULTS_FILE_VARIABLE, type BenchReport, type Figure } from './results.ts';

/**
 * `npm run bench`: every benchmark, one after the other, then one table of
 * every figure with its budget, pass or FAIL and the machine it ran on, and
 * the peers' published figures beside them. Each part is its own npm script
 * (or, until it has one, its file run with tsx) and still runs alone; here it
 * gets BENCH_RESULTS_FILE and writes its figures there as JSON. Parts run
 * sequentially: they would otherwise measure each other.
 *
 * BENCH_PARTS=db,stack runs only those parts. Exits non-zero when a part
 * fails to run; a missed budget prints FAIL.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Part {
  name: string;
  script: string;
  file: string;
}

const PARTS: Part[] = [
  { name: 'db', script: 'bench:db', file: 'bench/db.ts' },
  { name: 'stack', script: 'bench:stack', file: 'bench/stack.ts' },
  { name: 'pages', script: 'bench:pages', file: 'bench/pages.ts' },
  { name: 'upload', script: 'bench:upload', file: 'bench/upload.ts' },
];

/** Published figures of comparable products, printed beside ours. */
export const PEERS: { figure: string; value: string; source: string }[] = [
  { figure: 'PostgREST, single-row read', value: 'about 2,000 req/s', source: "Supabase's benchmarks, 2 vCPUs" },
  { figure: 'Immich thumbnails', value: '250 px WebP', source: 'Immich' },
  { figure: 'Median page image weight, mobile', value: '881 KB', source: 'HTTP Archive Web Almanac' },
  { figure: 'Pinterest core JavaScript', value: '150 KB', source: 'Pinterest engineering' },
];

const log = (line = '') => process.stdout.write(`${line}\n`);

function npmScripts(): Record<string, string> {
  try {
    return (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  } catch {
    return {};
  }
}

/** How to run a part: its npm script, else its file with tsx, else nothing (not built yet). */
export function commandFor(part: Part, scripts: Record<string, string>): string[] | null {
  if (scripts[part.script]) return [process.platform === 'win32' ? 'npm.cmd' : 'npm', 'run', '--silent', part.script];
  if (existsSync(path.join(root, part.file))) return [process.execPath, '--import', 'tsx', part.file];
  return null;
}

function run(command: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: root, env, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

interface Outcome {
  part: Part;
  status: 'ran' | 'failed' | 'missing' | 'no figures';
  report: BenchReport | null;
  seconds: number;
}

/** The table: our figures, a line per part that gave none, then the peers. */
export function renderTable(outcomes: Outcome[], machine: string): string[] {
  const lines = ['| figure | value | budget | result | machine |', '|---|---|---|---|---|'];
  const cell = (text: string) => text.replaceAll('|', '\\|');
  for (const outcome of outcomes) {
    if (!outcome.report) {
      const why = { missing: 'not run: no script or file yet', failed: 'FAILED to run (see its output)', 'no figures': 'ran, wrote no figures (see its output)', ran: '' }[outcome.status];
      lines.push(`| ${outcome.part.script} | | | ${why} | ${cell(machine)} |`);
      continue;
    }
    for (const figure of outcome.report.figures) {
      const pass = passOf(figure);
      const value = figure.value === null ? 'n/a' : `${figure.value.toLocaleString('en-US')} ${figure.unit}`.trim();
      const name = figure.note ? `${figure.figure} (${figure.note})` : figure.figure;
      lines.push(`| ${cell(name)} | ${cell(value)} | ${cell(budgetText(figure.budget, figure.unit))} | ${pass === null ? '' : pass ? 'pass' : 'FAIL'} | ${cell(outcome.report.machine)} |`);
    }
  }
  for (const peer of PEERS) lines.push(`| Peer: ${cell(peer.figure)} | ${cell(peer.value)} | | published | ${cell(peer.source)} |`);
  return lines;
}

async function main(): Promise<number> {
  const wanted = process.env.BENCH_PARTS?.split(',').map((name) => name.trim()).filter(Boolean);
  const parts = wanted ? PARTS.filter((part) => wanted.includes(part.name)) : PARTS;
  const scripts = npmScripts();
  const folder = await mkdtemp(path.join(tmpdir(), 'obyect-bench-'));
  const outcomes: Outcome[] = [];
  const machineAtStart = machineDescription();
  try {
    for (const part of parts) {
      const command = commandFor(part, scripts);
      if (!command) {
        outcomes.push({ part, status: 'missing', report: null, seconds: 0 });
        continue;
      }
      log(`\n=== ${part.script}: ${command.slice(command[0] === process.execPath ? 2 : 0).join(' ')}`);
      const file = path.join(folder, `${part.name}.json`);
      const started = performance.now();
      const code = await run(command, { ...process.env, [RESULTS_FILE_VARIABLE]: file }).catch(() => 1);
      const seconds = (performance.now() - started) / 1000;
      const report = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as BenchReport) : null;
      outcomes.push({ part, status: code !== 0 ? 'failed' : report ? 'ran' : 'no figures', report, seconds });
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }

  log('');
  log(`npm run bench: ${outcomes.map((o) => `${o.part.script} ${o.status}${o.seconds ? ` in ${Math.round(o.seconds)} s` : ''}`).join(', ')}`);
  log(`machine at the start: ${machineAtStart}; at the end: ${machineDescription()}`);
  log('');
  for (const line of renderTable(outcomes, machineAtStart)) log(line);
  const figures: Figure[] = outcomes.flatMap((o) => o.report?.figures ?? []);
  const failed = figures.filter((figure) => passOf(figure) === false).length;
  log('');
  log(`${figures.length} figures, ${failed} over budget.`);
  return outcomes.some((o) => o.status === 'failed') ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
