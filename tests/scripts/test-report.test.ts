import { describe, expect, it } from 'vitest';
import { formatDuration, formatSummary, junitFileTimes, slowestFiles, vitestFileTimes } from '../../scripts/test-report.ts';

describe("npm test's closing report", () => {
  it("reads each file's wall time from vitest's JSON report, named from the project root", () => {
    const json = JSON.stringify({
      testResults: [
        { name: '/repo/tests/sql/a.test.ts', startTime: 1_000, endTime: 4_500 },
        { name: '/repo/tests/local/b.test.ts', startTime: 2_000, endTime: 2_250 },
        { name: '/repo/tests/never-started.test.ts' },
      ],
    });
    expect(vitestFileTimes('unit', json, '/repo')).toEqual([
      { stage: 'unit', file: 'tests/sql/a.test.ts', seconds: 3.5 },
      { stage: 'unit', file: 'tests/local/b.test.ts', seconds: 0.25 },
    ]);
  });

  it("reads each file's time from deno test's JUnit report", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="deno test" tests="3" failures="0" errors="0" time="2.100">
    <testsuite name="./check-subscription/handler.test.ts" tests="2" disabled="0" errors="0" failures="0" time="1.250">
        <testcase name="one" classname="./check-subscription/handler.test.ts" time="0.500"></testcase>
    </testsuite>
    <testsuite name="./_shared/billing-env.test.ts" tests="1" disabled="0" errors="0" failures="0" time="0.050">
    </testsuite>
</testsuites>`;
    expect(junitFileTimes('functions', xml, 'supabase/functions/')).toEqual([
      { stage: 'functions', file: 'supabase/functions/check-subscription/handler.test.ts', seconds: 1.25 },
      { stage: 'functions', file: 'supabase/functions/_shared/billing-env.test.ts', seconds: 0.05 },
    ]);
  });

  it('keeps the ten slowest files, slowest first', () => {
    const files = Array.from({ length: 14 }, (_, index) => ({ stage: 'unit', file: `f${index}.test.ts`, seconds: index }));
    const slowest = slowestFiles(files);
    expect(slowest).toHaveLength(10);
    expect(slowest.map((file) => file.seconds)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4]);
  });

  it('prints every stage with its wall time and outcome, the total, then the slowest files', () => {
    const summary = formatSummary(
      [
        { name: 'typecheck', seconds: 41.26, ok: true },
        { name: 'unit', seconds: 749.2, ok: false },
        { name: 'e2e', seconds: 0, ok: null },
      ],
      812.4,
      [
        { stage: 'unit', file: 'tests/local/auth-abuse.test.ts', seconds: 62.4 },
        { stage: 'unit', file: 'tests/sql/listing.test.ts', seconds: 16.8 },
      ],
    );
    expect(summary.split('\n')).toEqual([
      '',
      'npm test: wall time by stage',
      '  typecheck        41.3 s  passed',
      '  unit        12 min 29 s  FAILED',
      '  e2e                      not run',
      '  total       13 min 32 s',
      '',
      'the 2 slowest test files',
      '    1 min 02 s  unit       tests/local/auth-abuse.test.ts',
      '        16.8 s  unit       tests/sql/listing.test.ts',
    ]);
  });

  it('writes durations under a minute in seconds and longer ones in minutes and seconds', () => {
    expect(formatDuration(0.04)).toBe('0.0 s');
    expect(formatDuration(59.94)).toBe('59.9 s');
    expect(formatDuration(60)).toBe('1 min 00 s');
    expect(formatDuration(1499.6)).toBe('25 min 00 s');
  });
});
