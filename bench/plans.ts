import type { Actor } from '../tests/support/acting.ts';
import type { BenchConnection } from './bench-database.ts';
import { callAs } from './measure.ts';

/**
 * The plans of the statements a function really executes, dynamic SQL
 * included, with actual rows and times: auto_explain with log_analyze and
 * nested statements on, sent to the client as notices (never to the server
 * log), for one call.
 */

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Actual Total Time'?: number;
  'Subplan Name'?: string;
  'Join Type'?: string;
  Plans?: PlanNode[];
}

export interface CapturedStatement {
  text: string;
  ms: number;
  plan: PlanNode;
}

export interface ScanUse {
  relation: string;
  node: string;
  index: string | null;
}

export interface PlanCheck {
  statements: CapturedStatement[];
  /** Scans of ads and ad_tags anywhere in the call, with their index. */
  scans: ScanUse[];
  usesIndex: boolean;
  seqScans: string[];
  /** How long the whole call took with plans captured (instrumented, so slower than the timed runs). */
  callMs: number;
  /**
   * The function's main query: the slowest statement that reads ads or
   * ad_tags other than by primary key (the query that picks the rows, as
   * opposed to building each row's JSON).
   */
  main: CapturedStatement | null;
}

const WATCHED = new Set(['ads', 'ad_tags']);
const INDEX_NODES = new Set(['Index Scan', 'Index Only Scan', 'Bitmap Heap Scan']);
const PRIMARY_KEYS = new Set(['ads_pkey', 'ad_tags_pkey']);

export async function enablePlanCapture(conn: BenchConnection): Promise<void> {
  await conn.exec(`load 'auto_explain'`);
  await conn.exec(`
    set auto_explain.log_min_duration = 0;
    set auto_explain.log_analyze = on;
    set auto_explain.log_buffers = off;
    set auto_explain.log_timing = on;
    set auto_explain.log_nested_statements = on;
    set auto_explain.log_format = 'json';
    set auto_explain.log_level = 'notice';
    set client_min_messages = 'notice';
  `);
}

export async function disablePlanCapture(conn: BenchConnection): Promise<void> {
  await conn.exec('set auto_explain.log_min_duration = -1');
}

function parseStatement(message: string): CapturedStatement | null {
  const match = /^duration: ([\d.]+) ms\s+plan:\s*/.exec(message);
  if (!match) return null;
  const body = JSON.parse(message.slice(match[0].length)) as { 'Query Text'?: string; Plan: PlanNode };
  return { text: (body['Query Text'] ?? '').replace(/\s+/g, ' ').trim(), ms: Number(match[1]), plan: body.Plan };
}

function* walk(node: PlanNode, parentRelation: string | null = null): Generator<ScanUse> {
  const relation = node['Relation Name'] ?? parentRelation;
  if (node['Node Type'] === 'Bitmap Index Scan') {
    if (parentRelation) yield { relation: parentRelation, node: 'Bitmap Index Scan', index: node['Index Name'] ?? null };
  } else if (node['Relation Name']) {
    yield { relation: node['Relation Name'], node: node['Node Type'], index: node['Index Name'] ?? null };
  }
  const passOn = node['Node Type'] === 'Bitmap Heap Scan' || node['Node Type'] === 'BitmapAnd' || node['Node Type'] === 'BitmapOr';
  for (const child of node.Plans ?? []) yield* walk(child, passOn ? relation : null);
}

export async function checkPlans(conn: BenchConnection, actor: Actor, sql: string, params: unknown[]): Promise<PlanCheck> {
  const { messages } = await conn.collectingMessages(() => callAs(conn, actor, sql, params));
  const statements = messages.map(parseStatement).filter((statement): statement is CapturedStatement => statement !== null);
  const scans = statements.flatMap((statement) => [...walk(statement.plan)]).filter((scan) => WATCHED.has(scan.relation));
  const callText = sql.replace(/\s+/g, ' ').trim();
  const call = statements.find((statement) => statement.text === callText);
  const selecting = statements.filter(
    (statement) =>
      statement !== call &&
      [...walk(statement.plan)].some((scan) => WATCHED.has(scan.relation) && !PRIMARY_KEYS.has(scan.index ?? '')),
  );
  const main = selecting.reduce<CapturedStatement | null>((worst, statement) => (!worst || statement.ms > worst.ms ? statement : worst), null);
  return {
    statements,
    scans,
    usesIndex: scans.some((scan) => INDEX_NODES.has(scan.node) || scan.node === 'Bitmap Index Scan'),
    seqScans: [...new Set(scans.filter((scan) => scan.node.includes('Seq Scan')).map((scan) => scan.relation))],
    callMs: call?.ms ?? Number.NaN,
    main,
  };
}

/** "ads.ads_newest (Index Scan)" for each distinct scan of ads and ad_tags. */
export function describeScans(scans: ScanUse[]): string {
  const seen = new Map<string, number>();
  for (const scan of scans) {
    const key = scan.index ? `${scan.relation}.${scan.index} (${scan.node})` : `${scan.relation} (${scan.node})`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen.keys()].join(', ');
}

/** A compact text rendering of one plan, for the cases that need a look. */
export function renderPlan(node: PlanNode, depth = 0): string[] {
  const on = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const using = node['Index Name'] ? ` using ${node['Index Name']}` : '';
  const actual =
    node['Actual Rows'] !== undefined
      ? ` (rows=${node['Actual Rows']} loops=${node['Actual Loops']} time=${node['Actual Total Time']} ms)`
      : '';
  const join = node['Join Type'] && node['Join Type'] !== 'Inner' ? ` ${node['Join Type']}` : '';
  const subplan = node['Subplan Name'] ? `[${node['Subplan Name']}] ` : '';
  const lines = [`${'  '.repeat(depth)}-> ${subplan}${node['Node Type']}${join}${on}${using}${actual}`];
  for (const child of node.Plans ?? []) lines.push(...renderPlan(child, depth + 1));
  return lines;
}
