import { RestError } from './rest-error.ts';
import type { Source } from './read-plan.ts';
import { EXPOSED_SCHEMA, type Column, type FunctionInfo, type SchemaCache } from './schema-cache.ts';
import { qualified, quoteIdent, type SqlParameters } from './sql-parameters.ts';

/**
 * Calling a function of the exposed schema: the overload is chosen by the
 * names of the arguments given, the arguments are passed by name, and the
 * result becomes a relation (`pgrst_call`) that the read renderer filters,
 * orders, limits and shapes like a table.
 */
export const CALL_CTE = 'pgrst_call';

const signature = (fn: FunctionInfo) =>
  `${EXPOSED_SCHEMA}.${fn.name}(${fn.parameters.map((p) => `${p.name} => ${p.type}`).join(', ')})`;

/**
 * The overload of `name` that takes exactly these named arguments. The
 * errors name signatures (PostgREST's "Perhaps you meant to call...") only of
 * functions the caller's role may execute: the schema cache knows every
 * function of the schema, and a caller is not told the shape of the others.
 */
export function resolveFunction(cache: SchemaCache, name: string, argumentNames: string[], role: string): FunctionInfo {
  const overloads = cache.functions.get(name) ?? [];
  const executable = (fn: FunctionInfo) => fn.executableBy.includes(role);
  const matches = overloads.filter((fn) =>
    argumentNames.every((arg) => fn.parameters.some((p) => p.name === arg))
    && fn.parameters.every((p) => p.hasDefault || argumentNames.includes(p.name)));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const shown = matches.filter(executable);
    throw new RestError(300, 'PGRST203',
      shown.length
        ? `Could not choose the best candidate function between: ${shown.map(signature).join(', ')}`
        : `Could not choose the best candidate function for ${EXPOSED_SCHEMA}.${name}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved');
  }
  const sorted = [...argumentNames].sort();
  const wanted = sorted.length ? `${EXPOSED_SCHEMA}.${name}(${sorted.join(', ')})` : `${EXPOSED_SCHEMA}.${name} without parameters`;
  const suggestion = overloads.find(executable);
  throw new RestError(404, 'PGRST202', `Could not find the function ${wanted} in the schema cache`,
    `Searched for the function ${EXPOSED_SCHEMA}.${name} with ${sorted.length ? `parameters ${sorted.join(', ')}` : 'no parameters'}, but no matches were found in the schema cache.`,
    suggestion
      ? `Perhaps you meant to call the function ${signature(suggestion)}`
      : 'If a new function was created in the database with this name and parameters, try reloading the schema cache.');
}

/** The function's result as a source for the read planner. */
export function resultSource(cache: SchemaCache, fn: FunctionInfo): Source {
  if (fn.returnShape === 'composite') {
    const relation = fn.resultRelation ? cache.relations.get(fn.resultRelation) : undefined;
    const columns = relation?.columns ?? new Map(fn.resultColumns.map((column) => [column.name, column]));
    return { name: fn.name, columns, relationshipOrigin: relation ? relation.name : null };
  }
  const column: Column = {
    name: fn.name, type: fn.returnType, typeName: fn.returnTypeName, category: fn.returnCategory, nullable: true,
    defaultExpression: null, position: 1,
  };
  return { name: fn.name, columns: new Map([[fn.name, column]]), relationshipOrigin: null };
}

/** The call with its arguments, and the row of JSON arguments it reads them from (POST), if any. */
function callParts(fn: FunctionInfo, args: Record<string, unknown>, from: 'json' | 'text', sql: SqlParameters): { record: string | null; call: string } {
  const given = fn.parameters.filter((p) => Object.hasOwn(args, p.name));
  if (from === 'json' && given.length > 0) {
    const record = `jsonb_to_record(${sql.add(JSON.stringify(args))}::jsonb) as pgrst_args (${given.map((p) => `${quoteIdent(p.name)} ${p.type}`).join(', ')})`;
    const call = given.map((p) => `${p.mode === 'v' ? 'variadic ' : ''}${quoteIdent(p.name)} => pgrst_args.${quoteIdent(p.name)}`);
    return { record, call: `${qualified(EXPOSED_SCHEMA, fn.name)}(${call.join(', ')})` };
  }
  const call = given.map((p) => `${p.mode === 'v' ? 'variadic ' : ''}${quoteIdent(p.name)} => ${sql.add(args[p.name])}::${p.type}`);
  return { record: null, call: `${qualified(EXPOSED_SCHEMA, fn.name)}(${call.join(', ')})` };
}

/**
 * `pgrst_call as materialized (...)`: calls the function once per request.
 * JSON arguments (POST) are converted to the parameter types by
 * jsonb_to_record; query-string arguments (GET) are cast from text.
 */
export function callCte(fn: FunctionInfo, args: Record<string, unknown>, from: 'json' | 'text', sql: SqlParameters): string {
  const { record, call } = callParts(fn, args, from, sql);
  const resultAlias = fn.returnShape === 'composite' ? 'pgrst_result' : `pgrst_result (${quoteIdent(fn.name)})`;
  const fromItem = `${record ? `${record} cross join lateral ` : ''}${call} as ${resultAlias}`;
  const columns = fn.returnShape === 'void' ? '' : 'pgrst_result.*';
  return `${CALL_CTE} as materialized (select ${columns} from ${fromItem})`;
}

/** Types whose text is already the JSON the API answers with. */
const JSON_TYPE_NAMES = new Set(['json', 'jsonb']);

/**
 * The answer of a function returning one scalar, asked for as it is (no
 * filter, order, range, count or null stripping): the call in the select
 * list, its JSON text the body. The same body as the read renderer's over
 * `pgrst_call`, without materializing the result, aggregating it into an
 * array and taking it out again: each of those copied a page of ads
 * (80 KB and more) once more.
 */
export function scalarCallStatement(fn: FunctionInfo, args: Record<string, unknown>, from: 'json' | 'text', sql: SqlParameters): string {
  const { record, call } = callParts(fn, args, from, sql);
  const body = JSON_TYPE_NAMES.has(fn.returnTypeName) ? `${call}::text` : `to_json(${call})::text`;
  return `select null::int8 as total, 1 as page_total, ${body} as body${record ? ` from ${record}` : ''}`;
}
