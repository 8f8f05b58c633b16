/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF (LF alone is read
 * too), a field quoted when it holds a comma, a quote or a line break, a quote
 * inside doubled. A leading UTF-8 byte order mark is dropped on reading.
 */

export const CSV_BOM = '\uFEFF';

export class CsvSyntaxError extends Error {
  /** The 1-based record where the file stopped making sense. */
  readonly record: number;

  constructor(record: number) {
    super(`Unclosed quote in record ${record}`);
    this.name = 'CsvSyntaxError';
    this.record = record;
  }
}

/** The records of a CSV text, each a list of fields; a final line break adds no record. */
export function parseCsv(input: string): string[][] {
  const text = input.startsWith(CSV_BOM) ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStarted = false;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = '';
    fieldStarted = false;
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (i < text.length) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += char;
      }
      i += 1;
      continue;
    }
    if (char === '"' && field === '' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (char === ',') {
      endField();
    } else if (char === '\r' && text[i + 1] === '\n') {
      endRecord();
      i += 1;
    } else if (char === '\n' || char === '\r') {
      endRecord();
    } else {
      field += char;
      fieldStarted = true;
    }
    i += 1;
  }
  if (quoted) throw new CsvSyntaxError(records.length + 1);
  if (field !== '' || fieldStarted || record.length > 0) endRecord();
  return records;
}

const NEEDS_QUOTES = /[",\r\n]/;

/** One field as written: quoted only when it must be. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, a tab or a carriage return first: OWASP's CSV injection
 * list) is written behind a single quote, which spreadsheets show as text; so is a cell that begins with a quote, so
 * that reading drops exactly the one it added (spreadsheetText, fromSpreadsheetText).
 */
const FORMULA_START = /^[=+\-@\t\r']/;

export function spreadsheetText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A cell as written by spreadsheetText, given back as it was. */
export function fromSpreadsheetText(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell;
}

/** Records as CSV text with CRLF line ends, each record ended by one. */
export function serialiseCsv(records: readonly (readonly string[])[]): string {
  return records.map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}
