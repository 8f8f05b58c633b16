/**
 * Where each column of a view comes from, read from the view's rewrite rule
 * (pg_rewrite.ev_action, PostgreSQL's node-tree text), as PostgREST does to
 * carry foreign keys of base tables over to views.
 */
export interface ViewColumnOrigin {
  /** Position of the view's column (its attnum). */
  position: number;
  column: string;
  originOid: string;
  originPosition: number;
}

type NodeValue = TreeNode | NodeValue[] | string;
interface TreeNode {
  type: string;
  fields: Map<string, NodeValue>;
}

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i += 1;
    } else if ('(){}'.includes(ch)) {
      tokens.push(ch);
      i += 1;
    } else {
      let token = '';
      while (i < text.length && !/\s/.test(text[i]!) && !'(){}'.includes(text[i]!)) {
        if (text[i] === '\\' && i + 1 < text.length) i += 1;
        token += text[i];
        i += 1;
      }
      tokens.push(token);
    }
  }
  return tokens;
}

class TreeReader {
  private position = 0;
  constructor(private readonly tokens: string[]) {}

  value(): NodeValue {
    const token = this.tokens[this.position];
    if (token === '{') return this.node();
    if (token === '(') return this.list();
    this.position += 1;
    return token ?? '';
  }

  private node(): TreeNode {
    this.position += 1;
    const node: TreeNode = { type: this.tokens[this.position++] ?? '', fields: new Map() };
    while (this.position < this.tokens.length && this.tokens[this.position] !== '}') {
      const field = this.tokens[this.position++]!;
      const next = this.tokens[this.position];
      if (next === '{' || next === '(') {
        node.fields.set(field.slice(1), this.value());
      } else {
        const atoms: string[] = [];
        while (this.position < this.tokens.length && !/^:/.test(this.tokens[this.position]!) && this.tokens[this.position] !== '}') {
          atoms.push(this.tokens[this.position++]!);
        }
        node.fields.set(field.slice(1), atoms.join(' '));
      }
    }
    this.position += 1;
    return node;
  }

  private list(): NodeValue[] {
    this.position += 1;
    const items: NodeValue[] = [];
    while (this.position < this.tokens.length && this.tokens[this.position] !== ')') items.push(this.value());
    this.position += 1;
    return items;
  }
}

const isNode = (value: NodeValue | undefined): value is TreeNode => typeof value === 'object' && !Array.isArray(value);

/** The origin of every column of the view's top-level SELECT that is a plain column of some relation. */
export function viewColumnOrigins(evAction: string): ViewColumnOrigin[] {
  const root = new TreeReader(tokenize(evAction)).value();
  const query = Array.isArray(root) ? root.find(isNode) : root;
  if (!isNode(query) || query.type !== 'QUERY') return [];
  const targetList = query.fields.get('targetList');
  if (!Array.isArray(targetList)) return [];
  const origins: ViewColumnOrigin[] = [];
  for (const entry of targetList) {
    if (!isNode(entry) || entry.type !== 'TARGETENTRY' || entry.fields.get('resjunk') === 'true') continue;
    const originOid = entry.fields.get('resorigtbl');
    const originPosition = Number(entry.fields.get('resorigcol'));
    const column = entry.fields.get('resname');
    if (typeof originOid !== 'string' || originOid === '0' || !originPosition || typeof column !== 'string') continue;
    origins.push({ position: Number(entry.fields.get('resno')), column, originOid, originPosition });
  }
  return origins;
}
