import pgQuery from 'libpg-query';

/**
 * Finds the UPDATE and DELETE statements without a WHERE clause, which hosted Supabase refuses in every API request
 * (pg-safeupdate is loaded for PostgREST's connections, and a trigger's statement counts): parsed by PostgreSQL's
 * own parser (libpg-query), not matched by a pattern, so a WHERE in a comment, a string or a subquery is not taken
 * for the statement's own. A statement built as text at run time (EXECUTE) is not seen.
 */
const { loadModule, parse, parsePlPgSQL } = pgQuery;

export interface UnguardedWrite {
  /** Where the statement is: a function's name or a file's. */
  place: string;
  statement: string;
}

let loaded: Promise<void> | null = null;
const ready = () => (loaded ??= loadModule());

type Node = unknown;

/** Calls `each` with every object of a JSON parse tree, depth first, arrays walked through. */
function eachObject(node: Node, each: (object: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) eachObject(item, each);
    return;
  }
  if (!node || typeof node !== 'object') return;
  each(node as Record<string, unknown>);
  for (const value of Object.values(node)) eachObject(value, each);
}

/** Every UPDATE and DELETE node of a parse tree that has no WHERE clause, CTEs and subqueries included. */
function unguarded(tree: Node): string[] {
  const found: string[] = [];
  eachObject(tree, (object) => {
    for (const key of ['UpdateStmt', 'DeleteStmt'] as const) {
      const statement = object[key] as { whereClause?: unknown; relation?: { schemaname?: string; relname?: string } } | undefined;
      if (!statement || typeof statement !== 'object' || 'whereClause' in statement) continue;
      const relation = [statement.relation?.schemaname, statement.relation?.relname].filter(Boolean).join('.');
      found.push(`${key === 'UpdateStmt' ? 'update' : 'delete from'} ${relation}`);
    }
  });
  return found;
}

/** The SQL statements inside a PL/pgSQL function: every expression parsed as a whole statement. */
function plpgsqlStatements(tree: Node): string[] {
  const queries: string[] = [];
  eachObject(tree, (object) => {
    const expr = object.PLpgSQL_expr as { query: string; parseMode?: number } | undefined;
    if (expr && (expr.parseMode ?? 0) === 0) queries.push(expr.query);
  });
  return queries;
}

/** The unguarded writes of one function, given its language and its `create function` statement (pg_get_functiondef). */
export async function unguardedWritesOfFunction(name: string, language: string, definition: string, body: string): Promise<UnguardedWrite[]> {
  await ready();
  const statements: string[] = [];
  if (language === 'plpgsql') statements.push(...plpgsqlStatements(await parsePlPgSQL(definition)));
  else if (language === 'sql') statements.push(body);
  const writes: UnguardedWrite[] = [];
  for (const sql of statements) for (const statement of unguarded(await parse(sql))) writes.push({ place: name, statement });
  return writes;
}

/** The unguarded writes of SQL text (one or more statements); `${...}` interpolations are read as parameters. */
export async function unguardedWritesOfSql(place: string, sql: string): Promise<UnguardedWrite[]> {
  await ready();
  let n = 0;
  const text = sql.replace(/\$\{[^}]*\}/g, () => `$${++n}`);
  return unguarded(await parse(text)).map((statement) => ({ place, statement }));
}

/**
 * The writing SQL statements written as literals in TypeScript sources: string and template literals that begin with
 * UPDATE, DELETE or WITH and hold an UPDATE ... SET or a DELETE FROM, each interpolation read as an identifier (or,
 * when that does not parse, as a parameter).
 * Those that parse neither way are given back as fragments: parts of a statement assembled elsewhere.
 */
export async function sqlLiteralsOf(file: string, source: string): Promise<{ statements: Array<{ place: string; sql: string }>; fragments: string[] }> {
  const ts = (await import('typescript')).default;
  await ready();
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const statements: Array<{ place: string; sql: string }> = [];
  const fragments: string[] = [];
  const consider = (node: import('typescript').Node, parts: string[]) => {
    const joined = (filler: (index: number) => string) => parts.map((part, index) => (index === 0 ? part : `${filler(index)}${part}`)).join('');
    if (!/^\s*(update|delete|with)\s/i.test(parts[0] ?? '')) return;
    // A statement that writes: an UPDATE ... SET or a DELETE FROM in it (not a route name or a sentence).
    const text = parts.join(' ');
    if (!/\bupdate\s+\S+[\s\S]*\bset\b/i.test(text) && !/\bdelete\s+from\s/i.test(text)) return;
    const place = `${file}:${tree.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    for (const filler of [(i: number) => `placeholder_${i}`, (i: number) => `$${i}`]) {
      const sql = joined(filler);
      try {
        pgQuery.parseSync(sql);
        statements.push({ place, sql });
        return;
      } catch {
        // Try the next reading of the interpolations.
      }
    }
    fragments.push(place);
  };
  const visit = (node: import('typescript').Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) consider(node, [node.text]);
    else if (ts.isTemplateExpression(node)) consider(node, [node.head.text, ...node.templateSpans.map((span) => span.literal.text)]);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return { statements, fragments };
}
