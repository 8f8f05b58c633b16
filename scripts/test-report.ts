/**
 * What `npm test` prints at its end: each stage's wall time and the slowest
 * test files, read from the reports the runners write (vitest's JSON
 * reporter, deno test's JUnit file).
 */

export interface StageTime {
  name: string;
  seconds: number;
  /** null when the stage did not run (an earlier one failed). */
  ok: boolean | null;
}

export interface FileTime {
  stage: string;
  file: string;
  seconds: number;
}

interface VitestJson {
  testResults?: { name: string; startTime?: number; endTime?: number }[];
}

/** The files of one vitest run (`--reporter=json`), named relative to root. */
export function vitestFileTimes(stage: string, json: string, root: string): FileTime[] {
  const report = JSON.parse(json) as VitestJson;
  return (report.testResults ?? [])
    .filter((result) => typeof result.startTime === 'number' && typeof result.endTime === 'number')
    .map((result) => ({
      stage,
      file: relative(result.name, root),
      seconds: (result.endTime! - result.startTime!) / 1000,
    }));
}

/** The files of one deno test run (`--junit-path`): one testsuite element a file. */
export function junitFileTimes(stage: string, xml: string, prefix = ''): FileTime[] {
  const files: FileTime[] = [];
  for (const match of xml.matchAll(/<testsuite\b([^>]*)>/g)) {
    const attributes = match[1]!;
    const name = /\bname="([^"]*)"/.exec(attributes)?.[1];
    const time = /\btime="([^"]*)"/.exec(attributes)?.[1];
    if (name === undefined || time === undefined || !Number.isFinite(Number(time))) continue;
    files.push({ stage, file: prefix + name.replace(/^\.\//, ''), seconds: Number(time) });
  }
  return files;
}

function relative(file: string, root: string): string {
  const base = root.endsWith('/') ? root : `${root}/`;
  return file.startsWith(base) ? file.slice(base.length) : file;
}

export function slowestFiles(files: readonly FileTime[], count = 10): FileTime[] {
  return [...files].sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file)).slice(0, count);
}

export function formatDuration(seconds: number): string {
  if (seconds < 59.95) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** The closing table: stages in the order they ran, the total wall time, then the slowest files. */
export function formatSummary(stages: readonly StageTime[], totalSeconds: number, files: readonly FileTime[]): string {
  const width = Math.max(...stages.map((stage) => stage.name.length), 'total'.length);
  const status = (ok: boolean | null) => (ok === null ? 'not run' : ok ? 'passed' : 'FAILED');
  const lines = ['', 'npm test: wall time by stage'];
  for (const stage of stages) {
    lines.push(`  ${stage.name.padEnd(width)}  ${(stage.ok === null ? '' : formatDuration(stage.seconds)).padStart(12)}  ${status(stage.ok)}`);
  }
  lines.push(`  ${'total'.padEnd(width)}  ${formatDuration(totalSeconds).padStart(12)}`);
  const slowest = slowestFiles(files);
  if (slowest.length > 0) {
    lines.push('', `the ${slowest.length} slowest test files`);
    for (const file of slowest) lines.push(`  ${formatDuration(file.seconds).padStart(12)}  ${file.stage.padEnd(width)}  ${file.file}`);
  }
  return lines.join('\n');
}
