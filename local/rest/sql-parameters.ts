/**
 * Every value from a request reaches SQL as a bind parameter; identifiers are
 * checked against the schema cache before they are quoted here.
 */
export class SqlParameters {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export const qualified = (schema: string, name: string): string => `${quoteIdent(schema)}.${quoteIdent(name)}`;
