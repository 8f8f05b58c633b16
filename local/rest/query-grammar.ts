import { parseError, RestError } from './rest-error.ts';

/**
 * PostgREST's URL grammar: select lists with aliases, casts, JSON paths and
 * embedded resources; filters with operators, negation and logic trees;
 * ordering. Parsing only: names are checked against the schema cache later.
 */
export interface JsonStep {
  arrow: '->' | '->>';
  key: string;
}

export interface FieldRef {
  name: string;
  jsonPath: JsonStep[];
}

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'field'; field: FieldRef; alias?: string; cast?: string }
  | {
      kind: 'embed';
      target: string;
      alias?: string;
      hint?: string;
      joinType?: 'inner' | 'left';
      spread: boolean;
      items: SelectItem[];
    };

export const FILTER_OPERATORS = [
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'in', 'is', 'isdistinct',
  'fts', 'plfts', 'phfts', 'wfts', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/**
 * The longest like, ilike, match or imatch value (a pattern, or a {list} of them with any/all), in characters.
 * Search boxes send a few words; a long pattern only makes a slow statement slower.
 */
export const MAX_PATTERN_LENGTH = 200;
const PATTERN_OPERATORS = new Set<FilterOperator>(['like', 'ilike', 'match', 'imatch']);

const QUANTIFIABLE = new Set<FilterOperator>(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch']);
const FULL_TEXT = new Set<FilterOperator>(['fts', 'plfts', 'phfts', 'wfts']);
export const IS_VALUES = ['null', 'not_null', 'true', 'false', 'unknown'] as const;
export type IsValue = (typeof IS_VALUES)[number];

export type Condition =
  | { operator: 'is'; negate: boolean; value: IsValue }
  | { operator: 'in'; negate: boolean; values: string[] }
  | { operator: Exclude<FilterOperator, 'is' | 'in'>; negate: boolean; value: string; quantifier?: 'any' | 'all'; language?: string };

export type LogicNode =
  | { kind: 'condition'; field: FieldRef; condition: Condition }
  | { kind: 'logic'; operator: 'and' | 'or'; negate: boolean; children: LogicNode[] };

export interface OrderTerm {
  field: FieldRef;
  /** For ordering by a column of a to-one embedded resource: `brand(name).desc`. */
  relation?: string;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

const MAX_DEPTH = 16;
/** Each level multiplies the rows built; deeper trees exhaust memory long before they are useful. */
const MAX_EMBED_DEPTH = 8;

class Scanner {
  position = 0;
  constructor(readonly text: string, readonly what: string) {}

  get done(): boolean {
    return this.position >= this.text.length;
  }
  peek(token: string): boolean {
    return this.text.startsWith(token, this.position);
  }
  eat(token: string): boolean {
    if (!this.peek(token)) return false;
    this.position += token.length;
    return true;
  }
  fail(expected: string): never {
    const found = this.done ? 'end of input' : `"${this.text[this.position]}"`;
    throw parseError(this.what, `unexpected ${found} at position ${this.position + 1} of "${this.text}", expected ${expected}`);
  }
  expect(token: string): void {
    if (!this.eat(token)) this.fail(`"${token}"`);
  }

  /** A double-quoted name or a bare name ending at a reserved character. */
  name(expected = 'a name'): string {
    if (this.eat('"')) {
      let value = '';
      while (!this.done && !this.peek('"')) {
        if (this.eat('\\')) {
          if (this.done) break;
        }
        value += this.text[this.position];
        this.position += 1;
      }
      this.expect('"');
      return value;
    }
    const start = this.position;
    while (!this.done) {
      const ch = this.text[this.position]!;
      if (',()":!.'.includes(ch) || /\s/.test(ch) || this.peek('->')) break;
      this.position += 1;
    }
    if (this.position === start) this.fail(expected);
    return this.text.slice(start, this.position);
  }

  jsonPath(): JsonStep[] {
    const steps: JsonStep[] = [];
    while (this.peek('->')) {
      const arrow: JsonStep['arrow'] = this.eat('->>') ? '->>' : '->';
      if (arrow === '->') this.expect('->');
      steps.push({ arrow, key: this.name('a JSON key') });
    }
    return steps;
  }

  field(): FieldRef {
    return { name: this.name('a column name'), jsonPath: this.jsonPath() };
  }
}

/** The select parameter; supabase-js has already removed whitespace outside double quotes. */
export function parseSelect(text: string): SelectItem[] {
  const scanner = new Scanner(text, 'select');
  if (text === '') return [{ kind: 'star' }];
  const items = selectList(scanner, 0);
  if (!scanner.done) scanner.fail('"," or end of input');
  return items;
}

function selectList(scanner: Scanner, depth: number): SelectItem[] {
  if (depth > MAX_EMBED_DEPTH) throw parseError('select', `embedding is nested more than ${MAX_EMBED_DEPTH} levels deep`);
  const items: SelectItem[] = [];
  if (scanner.peek(')')) return items;
  do {
    items.push(selectItem(scanner, depth));
  } while (scanner.eat(','));
  return items;
}

function selectItem(scanner: Scanner, depth: number): SelectItem {
  const spread = scanner.eat('...');
  if (!spread && scanner.eat('*')) return { kind: 'star' };
  let alias: string | undefined;
  let name = scanner.name('a column or relation name');
  if (scanner.peek(':') && !scanner.peek('::')) {
    scanner.expect(':');
    alias = name;
    name = scanner.name('a column or relation name');
  }
  if (spread || scanner.peek('!') || scanner.peek('(')) {
    let hint: string | undefined;
    let joinType: 'inner' | 'left' | undefined;
    while (scanner.eat('!')) {
      const word = scanner.name('a foreign key hint, "inner" or "left"');
      if (word === 'inner' || word === 'left') joinType = word;
      else if (hint === undefined) hint = word;
      else scanner.fail('"inner" or "left" after the hint');
    }
    scanner.expect('(');
    const items = selectList(scanner, depth + 1);
    scanner.expect(')');
    return { kind: 'embed', target: name, alias, hint, joinType, spread, items };
  }
  const field: FieldRef = { name, jsonPath: scanner.jsonPath() };
  let cast: string | undefined;
  if (scanner.eat('::')) {
    const start = scanner.position;
    while (!scanner.done && /[A-Za-z0-9_]/.test(scanner.text[scanner.position]!)) scanner.position += 1;
    scanner.eat('[]');
    cast = scanner.text.slice(start, scanner.position);
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\[\])?$/.test(cast)) scanner.fail('a type name');
  }
  return { kind: 'field', field, alias, cast };
}

/** `[not.]operator[(any|all|language)].value` of one filter. */
export function parseCondition(text: string, what = `filter (${text})`): Condition {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const match = /^([a-z]+)(?:\(([^)]*)\))?\./.exec(rest);
  const operator = match?.[1] as FilterOperator | undefined;
  if (!match || !operator || !(FILTER_OPERATORS as readonly string[]).includes(operator)) {
    throw parseError(what, `unknown operator in "${text}": use one of ${FILTER_OPERATORS.join(', ')}, optionally after "not."`);
  }
  const modifier = match[2];
  const value = rest.slice(match[0].length);
  if (operator === 'is') {
    const lowered = value.toLowerCase() as IsValue;
    if (modifier !== undefined || !IS_VALUES.includes(lowered)) {
      throw parseError(what, `"is" takes null, not_null, true, false or unknown, not "${value}"`);
    }
    return { operator, negate, value: lowered };
  }
  if (operator === 'in') {
    if (modifier !== undefined) throw parseError(what, '"in" takes no modifier');
    return { operator, negate, values: parseList(value, what) };
  }
  let quantifier: 'any' | 'all' | undefined;
  let language: string | undefined;
  if (modifier !== undefined) {
    if ((modifier === 'any' || modifier === 'all') && QUANTIFIABLE.has(operator)) quantifier = modifier;
    else if (FULL_TEXT.has(operator) && /^[A-Za-z0-9_]+$/.test(modifier)) language = modifier;
    else throw parseError(what, `"${operator}" does not take the modifier "(${modifier})"`);
  }
  if (quantifier && !/^\{.*\}$/s.test(value)) {
    throw parseError(what, `"${operator}(${quantifier})" takes a list in curly braces, e.g. {a,b}`);
  }
  if (PATTERN_OPERATORS.has(operator) && [...value].length > MAX_PATTERN_LENGTH) throw patternTooLong(operator, [...value].length);
  return { operator, negate, value, quantifier, language };
}

const patternTooLong = (operator: FilterOperator, length: number) =>
  new RestError(
    400,
    'PGRST100',
    `"failed to parse filter (${operator}): the pattern is longer than ${MAX_PATTERN_LENGTH} characters"`,
    `like, ilike, match and imatch patterns are at most ${MAX_PATTERN_LENGTH} characters; this one has ${length}`,
  );

/** `(a,"b,c",d)`: the values of an `in` filter; double quotes protect commas and parentheses. */
function parseList(text: string, what: string): string[] {
  if (!text.startsWith('(') || !text.endsWith(')')) throw parseError(what, `"in" takes a list in parentheses, e.g. in.(a,b), not "${text}"`);
  const body = text.slice(1, -1);
  if (body === '') return [];
  const values: string[] = [];
  let current = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '\\' && i + 1 < body.length) current += body[++i];
      else if (ch === '"') quoted = false;
      else current += ch;
    } else if (ch === '"') {
      quoted = true;
      wasQuoted = true;
    } else if (ch === ',') {
      values.push(wasQuoted ? current : current.trim());
      current = '';
      wasQuoted = false;
    } else {
      current += ch;
    }
  }
  if (quoted) throw parseError(what, `unterminated double quote in "${text}"`);
  values.push(wasQuoted ? current : current.trim());
  return values;
}

/** Splits at commas that are outside parentheses, braces and double quotes. */
function splitTopLevel(text: string, what: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '\\') i += 1;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === '(' || ch === '{' || ch === '[') depth += 1;
    else if (ch === ')' || ch === '}' || ch === ']') depth -= 1;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) throw parseError(what, `unbalanced parentheses in "${text}"`);
  }
  if (depth !== 0 || quoted) throw parseError(what, `unbalanced parentheses or quotes in "${text}"`);
  parts.push(text.slice(start));
  return parts;
}

/** The value of `or=(...)`/`and=(...)`: conditions and nested `and(...)`, `or(...)`, `not.and(...)`. */
export function parseLogic(operator: 'and' | 'or', negate: boolean, text: string, depth = 0): LogicNode {
  const what = `logic tree (${text})`;
  if (depth > MAX_DEPTH) throw parseError(what, `logic trees are nested more than ${MAX_DEPTH} levels deep`);
  if (!text.startsWith('(') || !text.endsWith(')') || text.length < 3) {
    throw parseError(what, `"${operator}" takes a parenthesised, comma-separated list of conditions, e.g. ${operator}=(a.eq.1,b.gt.2)`);
  }
  const children = splitTopLevel(text.slice(1, -1), what).map((part): LogicNode => {
    const nested = /^(not\.)?(and|or)(\(.*\))$/s.exec(part);
    if (nested) return parseLogic(nested[2] as 'and' | 'or', Boolean(nested[1]), nested[3]!, depth + 1);
    const scanner = new Scanner(part, what);
    const field = scanner.field();
    scanner.expect('.');
    let rest = part.slice(scanner.position);
    // Inside a logic tree a value may be double-quoted to protect commas and parentheses.
    const valueMatch = /^((?:not\.)?[a-z]+(?:\([^)]*\))?\.)"((?:[^"\\]|\\.)*)"$/s.exec(rest);
    if (valueMatch) rest = valueMatch[1]! + valueMatch[2]!.replace(/\\(.)/gs, '$1');
    return { kind: 'condition', field, condition: parseCondition(rest, what) };
  });
  return { kind: 'logic', operator, negate, children };
}

/** `order=a.desc.nullslast,b,brand(name).asc` */
export function parseOrder(text: string): OrderTerm[] {
  const what = `order (${text})`;
  return splitTopLevel(text, what).map((part) => {
    const scanner = new Scanner(part, what);
    let relation: string | undefined;
    let field: FieldRef;
    const first = scanner.field();
    if (scanner.eat('(')) {
      relation = first.name;
      field = scanner.field();
      scanner.expect(')');
    } else {
      field = first;
    }
    const term: OrderTerm = { field, relation };
    while (scanner.eat('.')) {
      const word = scanner.name('asc, desc, nullsfirst or nullslast');
      if ((word === 'asc' || word === 'desc') && !term.direction && !term.nulls) term.direction = word;
      else if ((word === 'nullsfirst' || word === 'nullslast') && !term.nulls) term.nulls = word === 'nullsfirst' ? 'first' : 'last';
      else scanner.fail('asc, desc, nullsfirst or nullslast');
    }
    if (!scanner.done) scanner.fail('"." or ","');
    return term;
  });
}

/** The `columns` parameter of an insert: `"name","logo_path"` or `name,logo_path`. */
export function parseColumns(text: string): string[] {
  const scanner = new Scanner(text, `columns (${text})`);
  const columns: string[] = [];
  do {
    columns.push(scanner.name('a column name'));
  } while (scanner.eat(','));
  if (!scanner.done) scanner.fail('"," or end of input');
  return columns;
}

/** A filter key such as `name`, `brand.name`, `data->>a` or `roles.actors.order`: the embed path and the last part. */
export function splitKey(key: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < key.length; i += 1) {
    const ch = key[i]!;
    if (ch === '"') quoted = !quoted;
    if (ch === '.' && !quoted && !current.includes('->')) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

export function parseField(text: string, what: string): FieldRef {
  const scanner = new Scanner(text, what);
  const field = scanner.field();
  if (!scanner.done) scanner.fail('end of the column name');
  return field;
}

export function parseNonNegativeInteger(text: string, what: string): number {
  if (!/^\d{1,15}$/.test(text)) throw parseError(what, `"${text}" is not a non-negative integer`);
  return Number(text);
}
