import {
  parseCondition, parseField, parseLogic, parseNonNegativeInteger, parseOrder, splitKey,
  type Condition, type FieldRef, type JsonStep, type LogicNode, type SelectItem,
} from './query-grammar.ts';
import { columnNotFound, RestError } from './rest-error.ts';
import { EXPOSED_SCHEMA, type Column, type Relationship, type SchemaCache } from './schema-cache.ts';

/**
 * Resolves a parsed request against the schema cache: every column, embedded
 * resource and relationship is looked up here, so the SQL built from a plan
 * only ever names objects that exist.
 */
export interface Source {
  /** The name in messages and in relationships: a table or view, or a function's result. */
  name: string;
  columns: Map<string, Column>;
  /** The relation whose foreign keys apply, if any. */
  relationshipOrigin: string | null;
}

export interface ColumnTarget {
  column: Column;
  jsonPath: JsonStep[];
}

export type PlanItem =
  | { kind: 'star' }
  | { kind: 'column'; target: ColumnTarget; name: string; cast?: string }
  | { kind: 'embed'; embed: EmbedPlan };

export type PlanFilter =
  | { kind: 'condition'; target: ColumnTarget; condition: Condition }
  | { kind: 'logic'; operator: 'and' | 'or'; negate: boolean; children: PlanFilter[] }
  | { kind: 'embed-null'; embed: EmbedPlan; negate: boolean };

export type PlanOrder =
  | { kind: 'column'; target: ColumnTarget; direction?: 'asc' | 'desc'; nulls?: 'first' | 'last' }
  | { kind: 'related'; embed: EmbedPlan; alias: string; direction?: 'asc' | 'desc'; nulls?: 'first' | 'last' };

export interface PlanNode {
  source: Source;
  alias: string;
  items: PlanItem[];
  filters: PlanFilter[];
  order: PlanOrder[];
  limit?: number;
  offset?: number;
  embeds: EmbedPlan[];
}

export interface EmbedPlan {
  /** The key in the output and in filter paths: the alias, else the target's name. */
  name: string;
  relationship: Relationship;
  node: PlanNode;
  inner: boolean;
  spread: boolean;
  /** `ads(count)`: the number of related rows as [{"count": n}]. */
  countOnly: boolean;
  lateral: string;
  /** Columns of a to-one resource that the parent orders by. */
  orderColumns: { column: Column; alias: string }[];
}

/**
 * Each embedded resource is a lateral join: hundreds of them make PostgreSQL's
 * planner take minutes and PGlite run out of memory, so a request may have this many.
 */
export const MAX_EMBEDS = 32;
/** PostgreSQL refuses more than 1664 columns in one select list. */
export const MAX_SELECT_ITEMS = 1000;

/** SQL aliases, unique within one statement: t0, t1 ... for relations, e1, e2 ... for lateral joins. */
export class Aliases {
  private tables = 0;
  private laterals = 0;
  table = () => `t${this.tables++}`;
  lateral = () => {
    if (this.laterals >= MAX_EMBEDS) {
      throw new RestError(400, 'PGRST100', '"failed to parse select"', `a request may embed at most ${MAX_EMBEDS} resources`);
    }
    return `e${++this.laterals}`;
  };
}

const embedKeys = new Set(['order', 'limit', 'offset']);

export function relationSource(cache: SchemaCache, name: string): Source {
  const relation = cache.relations.get(name);
  if (!relation) throw tableNotFound(name);
  return { name, columns: relation.columns, relationshipOrigin: name };
}

export function tableNotFound(name: string): RestError {
  return new RestError(404, 'PGRST205', `Could not find the table '${EXPOSED_SCHEMA}.${name}' in the schema cache`);
}

export function resolveColumn(source: Source, field: FieldRef): ColumnTarget {
  const column = source.columns.get(field.name);
  if (!column) throw columnNotFound(source.name, field.name);
  return { column, jsonPath: field.jsonPath };
}

export function planSelect(cache: SchemaCache, source: Source, select: SelectItem[], aliases: Aliases): PlanNode {
  if (select.length > MAX_SELECT_ITEMS) {
    throw new RestError(400, 'PGRST100', '"failed to parse select"', `a select list may name at most ${MAX_SELECT_ITEMS} items`);
  }
  const node: PlanNode = { source, alias: aliases.table(), items: [], filters: [], order: [], embeds: [] };
  for (const item of select) {
    if (item.kind === 'star') {
      node.items.push({ kind: 'star' });
    } else if (item.kind === 'field') {
      const target = resolveColumn(source, item.field);
      if (item.cast !== undefined && !cache.typeNames.has(item.cast.replace(/\[\]$/, '').toLowerCase())) {
        throw new RestError(400, '42704', `type "${item.cast}" does not exist`);
      }
      const lastKey = item.field.jsonPath.at(-1)?.key;
      const name = item.alias ?? (lastKey !== undefined && !/^-?\d+$/.test(lastKey) ? lastKey : item.field.name);
      node.items.push({ kind: 'column', target, name, cast: item.cast });
    } else {
      const relationship = resolveRelationship(cache, source, item.target, item.hint);
      if (item.spread && !relationship.toOne) {
        throw new RestError(400, 'PGRST119', `A spread operation on '${item.target}' is not possible`,
          `'${source.name}' and '${item.target}' do not form a many-to-one or one-to-one relationship`);
      }
      const targetSource = relationSource(cache, relationship.target);
      const countOnly = isCountOnly(item.items, targetSource);
      const child = planSelect(cache, targetSource, countOnly ? [] : item.items, aliases);
      const embed: EmbedPlan = {
        name: item.alias ?? item.target,
        relationship,
        node: child,
        inner: item.joinType === 'inner',
        spread: item.spread,
        countOnly,
        lateral: aliases.lateral(),
        orderColumns: [],
      };
      node.embeds.push(embed);
      node.items.push({ kind: 'embed', embed });
    }
  }
  return node;
}

const isCountOnly = (items: SelectItem[], target: Source) =>
  items.length === 1 && items[0]!.kind === 'field' && items[0]!.field.name === 'count'
  && items[0]!.field.jsonPath.length === 0 && !items[0]!.alias && !items[0]!.cast && !target.columns.has('count');

function describeRelationship(relationship: Relationship) {
  const { origin, target, originColumns, targetColumns, junction } = relationship;
  return {
    cardinality: relationship.cardinality,
    embedding: `${origin} with ${target}`,
    relationship: junction
      ? `${junction.relation} using ${junction.originConstraint}(${junction.originColumns.join(', ')}) and ${relationship.constraint}(${junction.targetColumns.join(', ')})`
      : `${relationship.constraint} using ${origin}(${originColumns.join(', ')}) and ${target}(${targetColumns.join(', ')})`,
  };
}

function resolveRelationship(cache: SchemaCache, source: Source, target: string, hint: string | undefined): Relationship {
  const all = source.relationshipOrigin ? cache.relationships.get(source.relationshipOrigin) ?? [] : [];
  let candidates = all.filter((relationship) => relationship.target === target);
  if (candidates.length === 0) {
    // Embedding by the foreign key column: `brand_id(*)`.
    candidates = all.filter((r) => r.cardinality !== 'one-to-many' && !r.junction && r.originColumns.length === 1
      && r.originColumns[0] === target && (cache.relations.get(r.target)?.kind === 'table'));
  }
  if (hint !== undefined) {
    candidates = candidates.filter((r) =>
      r.constraint === hint
      || r.junction?.relation === hint
      || (!r.junction && r.toOne && r.originColumns.length === 1 && r.originColumns[0] === hint)
      || (!r.junction && !r.toOne && r.targetColumns.length === 1 && r.targetColumns[0] === hint)
      || (!r.junction && r.cardinality === 'one-to-one' && (r.originColumns.includes(hint) || r.targetColumns.includes(hint))));
  }
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) {
    return notFound(source.name, target, hint);
  }
  const names = candidates.map((r) => `'${target}!${r.junction ? r.junction.relation : r.constraint}'`);
  throw new RestError(300, 'PGRST201',
    `Could not embed because more than one relationship was found for '${source.name}' and '${target}'`,
    candidates.map(describeRelationship),
    `Try changing '${target}' to one of the following: ${[...new Set(names)].join(', ')}. Find the desired relationship in the 'details' key.`);
}

function notFound(origin: string, target: string, hint: string | undefined): never {
  throw new RestError(400, 'PGRST200',
    `Could not find a relationship between '${origin}' and '${target}' in the schema cache`,
    `Searched for a foreign key relationship between '${origin}' and '${target}'${hint ? ` using the hint '${hint}'` : ''} in the schema '${EXPOSED_SCHEMA}', but no matches were found.`,
    null);
}

function findNode(root: PlanNode, path: string[]): PlanNode {
  let node = root;
  for (let i = 0; i < path.length; i += 1) {
    const embed = node.embeds.find((candidate) => candidate.name === path[i]);
    if (!embed) {
      const name = path.slice(0, i + 1).join('.');
      throw new RestError(400, 'PGRST108', `'${name}' is not an embedded resource in this request`, null,
        `Verify that '${name}' is included in the 'select' query parameter.`);
    }
    node = embed.node;
  }
  return node;
}

function planCondition(node: PlanNode, fieldText: string, field: FieldRef, condition: Condition): PlanFilter {
  const embed = field.jsonPath.length === 0 ? node.embeds.find((candidate) => candidate.name === fieldText) : undefined;
  if (embed && !node.source.columns.has(fieldText)) {
    if (condition.operator !== 'is' || condition.value !== 'null') {
      throw new RestError(400, 'PGRST120', `Bad operator on the '${fieldText}' embedded resource`, null,
        `Only is null or not is null filters are allowed on embedded resources`);
    }
    return { kind: 'embed-null', embed, negate: condition.negate };
  }
  return { kind: 'condition', target: resolveColumn(node.source, field), condition };
}

function planLogic(node: PlanNode, logic: LogicNode): PlanFilter {
  if (logic.kind === 'condition') return planCondition(node, logic.field.name, logic.field, logic.condition);
  return { kind: 'logic', operator: logic.operator, negate: logic.negate, children: logic.children.map((child) => planLogic(node, child)) };
}

/** Applies the filter, order, limit and offset parameters (top-level and `embed.`-prefixed) to a planned select. */
export function applyParameters(root: PlanNode, entries: [string, string][]): void {
  let orderAliases = 0;
  for (const [key, value] of entries) {
    const parts = splitKey(key);
    const last = parts.at(-1)!;
    if (last === 'or' || last === 'and') {
      const negate = parts.at(-2) === 'not';
      const node = findNode(root, parts.slice(0, negate ? -2 : -1));
      node.filters.push(planLogic(node, parseLogic(last, negate, value)));
      continue;
    }
    const node = findNode(root, parts.slice(0, -1));
    if (embedKeys.has(last)) {
      if (last === 'limit') node.limit = parseNonNegativeInteger(value, `limit (${value})`);
      else if (last === 'offset') node.offset = parseNonNegativeInteger(value, `offset (${value})`);
      else {
        node.order = parseOrder(value).map((term): PlanOrder => {
          if (term.relation === undefined) {
            return { kind: 'column', target: resolveColumn(node.source, term.field), direction: term.direction, nulls: term.nulls };
          }
          findNode(node, [term.relation]);
          const embed = node.embeds.find((candidate) => candidate.name === term.relation)!;
          if (!embed.relationship.toOne) {
            throw new RestError(400, 'PGRST118', `A related order on '${term.relation}' is not possible`,
              `'${node.source.name}' and '${term.relation}' do not form a many-to-one or one-to-one relationship`);
          }
          const { column } = resolveColumn(embed.node.source, { name: term.field.name, jsonPath: [] });
          const alias = `pgrst_order_${++orderAliases}`;
          embed.orderColumns.push({ column, alias });
          return { kind: 'related', embed, alias, direction: term.direction, nulls: term.nulls };
        });
      }
      continue;
    }
    const field = parseField(last, `filter (${key})`);
    node.filters.push(planCondition(node, last, field, parseCondition(value)));
  }
}

/** The output names of a node's items, in order (spread resources contribute their own). */
export function outputNames(node: PlanNode): string[] {
  return node.items.flatMap((item) => {
    if (item.kind === 'star') return [...node.source.columns.keys()];
    if (item.kind === 'column') return [item.name];
    if (item.embed.spread) return outputNames(item.embed.node);
    return item.embed.node.items.length === 0 && !item.embed.countOnly ? [] : [item.embed.name];
  });
}

/** Root columns a write must return for the response: selected, joined on, filtered or ordered by. */
export function referencedColumns(root: PlanNode): string[] | '*' {
  if (root.items.some((item) => item.kind === 'star')) return '*';
  const names = new Set<string>();
  for (const item of root.items) {
    if (item.kind === 'column') names.add(item.target.column.name);
    else if (item.kind === 'embed') item.embed.relationship.originColumns.forEach((name) => names.add(name));
  }
  const addFilter = (filter: PlanFilter) => {
    if (filter.kind === 'condition') names.add(filter.target.column.name);
    else if (filter.kind === 'logic') filter.children.forEach(addFilter);
  };
  root.filters.forEach(addFilter);
  for (const term of root.order) if (term.kind === 'column') names.add(term.target.column.name);
  return [...names];
}
