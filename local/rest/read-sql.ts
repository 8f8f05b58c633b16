import type { Condition } from './query-grammar.ts';
import type { ColumnTarget, EmbedPlan, PlanFilter, PlanItem, PlanNode, PlanOrder } from './read-plan.ts';
import { outputNames } from './read-plan.ts';
import type { Relationship } from './schema-cache.ts';
import { EXPOSED_SCHEMA } from './schema-cache.ts';
import { qualified, quoteIdent, type SqlParameters } from './sql-parameters.ts';

/**
 * Renders a read plan as one SQL statement whose JSON is built by PostgreSQL
 * (row_to_json, json_agg), so the bytes are the same on every engine. Embedded
 * resources are LEFT JOIN LATERAL subqueries: to-one as an object, to-many as
 * an array; `!inner` and null filters test the lateral's presence.
 */
const COMPARISON: Record<string, string> = {
  eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', like: 'like', ilike: 'ilike', match: '~', imatch: '~*',
  cs: '@>', cd: '<@', ov: '&&', sl: '<<', sr: '>>', nxr: '&<', nxl: '&>', adj: '-|-',
};
const FULL_TEXT_FUNCTION: Record<string, string> = {
  fts: 'to_tsquery', plfts: 'plainto_tsquery', phfts: 'phraseto_tsquery', wfts: 'websearch_to_tsquery',
};
const PATTERN_OPERATORS = new Set(['like', 'ilike', 'match', 'imatch']);

export interface ReadOutput {
  /** Count every row that matches, not just the page (Prefer: count=exact). */
  count: boolean;
  /** One JSON object instead of an array (Accept: application/vnd.pgrst.object+json). */
  single: boolean;
  /** HEAD: no body is built. */
  head: boolean;
  stripNulls: boolean;
  /** A function returning a scalar or a set of scalars: the values themselves, not objects. */
  scalarColumn?: string;
}

/** A PostgreSQL array literal of text elements, every element quoted. */
export function arrayLiteral(values: string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

export function columnSql(alias: string, target: ColumnTarget, sql: SqlParameters): string {
  let expression = `${quoteIdent(alias)}.${quoteIdent(target.column.name)}`;
  if (target.jsonPath.length === 0) return expression;
  expression = `to_jsonb(${expression})`;
  for (const step of target.jsonPath) {
    const key = /^-?\d+$/.test(step.key) ? `${sql.add(step.key)}::int` : `${sql.add(step.key)}::text`;
    expression = `${expression} ${step.arrow} ${key}`;
  }
  return `(${expression})`;
}

/** Is the filtered expression text already (for LIKE and regular expressions)? */
function isText(target: ColumnTarget): boolean {
  const last = target.jsonPath.at(-1);
  return last ? last.arrow === '->>' : target.column.category === 'S';
}

export function conditionSql(expression: string, target: ColumnTarget, condition: Condition, sql: SqlParameters): string {
  let result: string;
  if (condition.operator === 'is') {
    result = `${expression} is ${condition.value === 'not_null' ? 'not null' : condition.value}`;
  } else if (condition.operator === 'in') {
    result = condition.values.length === 0 ? 'false' : `${expression} = any (${sql.add(arrayLiteral(condition.values))})`;
  } else if (condition.operator === 'isdistinct') {
    result = `${expression} is distinct from ${sql.add(condition.value)}`;
  } else if (condition.operator in FULL_TEXT_FUNCTION) {
    const language = condition.language ? `${sql.add(condition.language)}::regconfig, ` : '';
    const vector = target.jsonPath.length === 0 && target.column.typeName === 'tsvector'
      ? expression
      : `to_tsvector(${language}${expression}::text)`;
    result = `${vector} @@ ${FULL_TEXT_FUNCTION[condition.operator]}(${language}${sql.add(condition.value)})`;
  } else {
    const operator = COMPARISON[condition.operator]!;
    const pattern = PATTERN_OPERATORS.has(condition.operator);
    const left = pattern && !isText(target) ? `${expression}::text` : expression;
    const value = condition.operator === 'like' || condition.operator === 'ilike'
      ? condition.value.replaceAll('*', '%')
      : condition.value;
    result = condition.quantifier
      ? `${left} ${operator} ${condition.quantifier} (${sql.add(value)})`
      : `${left} ${operator} ${sql.add(value)}`;
  }
  return condition.negate ? `not (${result})` : result;
}

function presenceSql(embed: EmbedPlan): string {
  const lateral = quoteIdent(embed.lateral);
  return embed.relationship.toOne && !embed.countOnly ? `${lateral}.body is not null` : `${lateral}.pgrst_n > 0`;
}

function filterSql(node: PlanNode, filter: PlanFilter, sql: SqlParameters): string {
  if (filter.kind === 'condition') {
    return conditionSql(columnSql(node.alias, filter.target, sql), filter.target, filter.condition, sql);
  }
  if (filter.kind === 'embed-null') {
    return filter.negate ? presenceSql(filter.embed) : `not (${presenceSql(filter.embed)})`;
  }
  const children = filter.children.map((child) => filterSql(node, child, sql));
  const joined = `(${children.join(` ${filter.operator} `)})`;
  return filter.negate ? `not ${joined}` : joined;
}

function orderSql(node: PlanNode, term: PlanOrder, sql: SqlParameters): string {
  const expression = term.kind === 'column'
    ? columnSql(node.alias, term.target, sql)
    : `${quoteIdent(term.embed.lateral)}.${quoteIdent(term.alias)}`;
  return `${expression} ${term.direction ?? 'asc'}${term.nulls ? ` nulls ${term.nulls}` : ''}`;
}

function itemSql(node: PlanNode, item: PlanItem, sql: SqlParameters): string[] {
  if (item.kind === 'star') return [`${quoteIdent(node.alias)}.*`];
  if (item.kind === 'column') {
    const expression = columnSql(node.alias, item.target, sql);
    return [`${item.cast ? `${expression}::${item.cast}` : expression} as ${quoteIdent(item.name)}`];
  }
  const lateral = quoteIdent(item.embed.lateral);
  if (item.embed.spread) return outputNames(item.embed.node).map((name) => `${lateral}.${quoteIdent(name)} as ${quoteIdent(name)}`);
  if (item.embed.node.items.length === 0 && !item.embed.countOnly) return [];
  return [`${lateral}.body as ${quoteIdent(item.embed.name)}`];
}

/** The join of a related resource to its parent row. */
function joinSql(relationship: Relationship, parent: string, child: string, junctionAlias: string): string {
  const pairs = (left: string, leftColumns: string[], right: string, rightColumns: string[]) =>
    leftColumns.map((column, i) => `${quoteIdent(left)}.${quoteIdent(column)} = ${quoteIdent(right)}.${quoteIdent(rightColumns[i]!)}`);
  const { junction } = relationship;
  if (!junction) return pairs(child, relationship.targetColumns, parent, relationship.originColumns).join(' and ');
  const conditions = [
    ...pairs(junctionAlias, junction.originColumns, parent, relationship.originColumns),
    ...pairs(junctionAlias, junction.targetColumns, child, relationship.targetColumns),
  ];
  return `exists (select 1 from ${qualified(EXPOSED_SCHEMA, junction.relation)} as ${quoteIdent(junctionAlias)} where ${conditions.join(' and ')})`;
}

interface RenderedNode {
  items: string;
  /** The FROM item with every lateral join, and with only those the WHERE clause needs (for counting). */
  from: string;
  fromForCount: string;
  where: string;
  order: string;
  limit: string;
}

function renderNode(node: PlanNode, fromItem: string, outerConditions: string[], sql: SqlParameters): RenderedNode {
  const laterals = node.embeds.map((embed) => renderLateral(node, embed, sql));
  const conditions = [...outerConditions, ...node.filters.map((filter) => filterSql(node, filter, sql))];
  node.embeds.forEach((embed) => {
    if (embed.inner) conditions.push(presenceSql(embed));
  });
  const usesLateral = (embed: EmbedPlan) => embed.inner || filtersUse(node.filters, embed);
  const items = node.items.flatMap((item) => itemSql(node, item, sql)).join(', ');
  const order = node.order.map((term) => orderSql(node, term, sql)).join(', ');
  const limit = `${node.limit !== undefined ? ` limit ${node.limit}` : ''}${node.offset ? ` offset ${node.offset}` : ''}`;
  return {
    items,
    from: [fromItem, ...laterals].join(' '),
    fromForCount: [fromItem, ...laterals.filter((_, i) => usesLateral(node.embeds[i]!))].join(' '),
    where: conditions.length ? ` where ${conditions.join(' and ')}` : '',
    order: order ? ` order by ${order}` : '',
    limit,
  };
}

function filtersUse(filters: PlanFilter[], embed: EmbedPlan): boolean {
  return filters.some((filter) => (filter.kind === 'embed-null' && filter.embed === embed)
    || (filter.kind === 'logic' && filtersUse(filter.children, embed)));
}

function renderLateral(parent: PlanNode, embed: EmbedPlan, sql: SqlParameters): string {
  const child = embed.node;
  const junctionAlias = `j_${embed.lateral}`;
  const fromItem = `${qualified(EXPOSED_SCHEMA, child.source.name)} as ${quoteIdent(child.alias)}`;
  const rendered = renderNode(child, fromItem, [joinSql(embed.relationship, parent.alias, child.alias, junctionAlias)], sql);
  const lateral = quoteIdent(embed.lateral);
  if (embed.countOnly) {
    return `left join lateral (select json_agg(_r) as body, max(_r."count") as pgrst_n from (select count(*) as "count" from ${rendered.from}${rendered.where}) as _r) as ${lateral} on true`;
  }
  if (embed.relationship.toOne) {
    const extra = [
      ...(embed.spread && rendered.items ? [rendered.items] : []),
      ...embed.orderColumns.map(({ column, alias }) => `${quoteIdent(child.alias)}.${quoteIdent(column.name)} as ${quoteIdent(alias)}`),
    ];
    return `left join lateral (select (select row_to_json(_r) from (select ${rendered.items}) as _r) as body${extra.map((e) => `, ${e}`).join('')} from ${rendered.from}${rendered.where}${rendered.order}) as ${lateral} on true`;
  }
  return `left join lateral (select coalesce(json_agg(_r), '[]') as body, count(*) as pgrst_n from (select ${rendered.items} from ${rendered.from}${rendered.where}${rendered.order}${rendered.limit}) as _r`
    + ` where ${embeddedRowBudget('_r')}) as ${lateral} on true`;
}

/** The most rows, and bytes, the embedded resources of one read may hold (bootstrap/06_rest_embedding_budget.sql). */
export const EMBEDDED_ROWS_MAX = 10_000;
export const EMBEDDED_BYTES_MAX = 8 * 1024 * 1024;

/** Counts one embedded row as it is read, and stops the statement past the budget. */
const embeddedRowBudget = (row: string) => `rest_local.embedded_row(pg_column_size(${row}), ${EMBEDDED_ROWS_MAX}, ${EMBEDDED_BYTES_MAX})`;

/**
 * The statement answering a read: one row with `total` (or null), `page_total`
 * and `body` (the JSON text, or null for HEAD).
 */
export function renderRead(root: PlanNode, fromItem: string, output: ReadOutput, sql: SqlParameters, cte?: string): string {
  const rendered = renderNode(root, fromItem, [], sql);
  const total = output.count ? `(select count(*) from ${rendered.fromForCount}${rendered.where})` : 'null::int8';
  let items = rendered.items;
  let body = output.head ? 'null::json' : output.single ? 'min(row_to_json(_r)::text)::json' : `coalesce(json_agg(_r), '[]')`;
  if (output.scalarColumn !== undefined) {
    items = `${quoteIdent(root.alias)}.${quoteIdent(output.scalarColumn)} as pgrst_scalar`;
    if (!output.head) body = output.single ? '(array_agg(to_json(_r.pgrst_scalar)))[1]' : `coalesce(json_agg(_r.pgrst_scalar), '[]')`;
  }
  if (output.stripNulls && !output.head) body = `json_strip_nulls(${body})`;
  return `${cte ? `with ${cte} ` : ''}select ${total} as total, count(*) as page_total, ${body}::text as body `
    + `from (select ${items} from ${rendered.from}${rendered.where}${rendered.order}${rendered.limit}) as _r`;
}

/** Renders only the WHERE conditions of the root (for UPDATE and DELETE), against the given alias. */
export function renderRootConditions(root: PlanNode, sql: SqlParameters): string[] {
  return root.filters.map((filter) => filterSql(root, filter, sql));
}
