// The expression under the cursor: a name followed by attribute and subscript
// accesses (`self.cache`, `data['train']`, `obj.items[-1]`), cut at the
// segment the cursor is on, the way a debugger hover resolves it. Pure logic,
// shared by the hover fallback and "dapscope: Inspect Expression…".

const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{N}_]/u;

const KEYWORDS = new Set([
  // Python
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue',
  'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in',
  'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
  // Go
  'func', 'package', 'var', 'const', 'type', 'struct', 'interface', 'map', 'chan', 'go', 'defer',
  'range', 'select', 'switch', 'case', 'default', 'fallthrough', 'goto',
]);

interface Segment {
  start: number; // offset in the line of the segment's first char ('.' or '[' included)
  end: number; // exclusive
}

/** Offset where a '#' comment starts (outside string literals), or -1. */
function commentStart(line: string): number {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') return i;
  }
  return -1;
}

/** Whether offset `at` is inside a string literal on this line. */
function inString(line: string, at: number): boolean {
  let quote = '';
  for (let i = 0; i < at && i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
  }
  return quote !== '';
}

function readIdent(line: string, i: number): number {
  if (i >= line.length || !IDENT_START.test(line[i])) return -1;
  let j = i + 1;
  while (j < line.length && IDENT_PART.test(line[j])) j++;
  return j;
}

/** Reads `[int]`, `[-int]`, `['str']` or `["str"]` at i; returns the end or -1. */
function readSubscript(line: string, i: number): number {
  if (line[i] !== '[') return -1;
  let j = i + 1;
  const q = line[j];
  if (q === '"' || q === "'") {
    j++;
    while (j < line.length && line[j] !== q) {
      if (line[j] === '\\') return -1;
      j++;
    }
    if (j >= line.length) return -1;
    j++;
  } else {
    if (line[j] === '-') j++;
    const d = j;
    while (j < line.length && line[j] >= '0' && line[j] <= '9') j++;
    if (j === d) return -1;
  }
  return line[j] === ']' ? j + 1 : -1;
}

/** Parses the chain that starts at `start` (an identifier start). */
function readChain(line: string, start: number): Segment[] {
  const segs: Segment[] = [];
  let end = readIdent(line, start);
  if (end < 0) return segs;
  segs.push({ start, end });
  for (;;) {
    if (line[end] === '.') {
      const e = readIdent(line, end + 1);
      if (e < 0) break;
      segs.push({ start: end, end: e });
      end = e;
    } else if (line[end] === '[') {
      const e = readSubscript(line, end);
      if (e < 0) break;
      segs.push({ start: end, end: e });
      end = e;
    } else break;
  }
  return segs;
}

/**
 * Returns the expression to inspect when the cursor is at `character` (0-based
 * UTF-16 offset) in `line`, or undefined when the cursor is not on a name.
 */
export function expressionAt(line: string, character: number): string | undefined {
  if (character < 0 || character > line.length) return undefined;
  const cs = commentStart(line);
  if (cs >= 0 && character >= cs) return undefined;
  const text = cs >= 0 ? line.slice(0, cs) : line;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const prev = i > 0 ? text[i - 1] : '';
    const startsChain = IDENT_START.test(c) && !(prev && (IDENT_PART.test(prev) || prev === '.'));
    if (!startsChain || inString(text, i)) {
      i++;
      continue;
    }
    const segs = readChain(text, i);
    const chainEnd = segs[segs.length - 1].end;
    if (character >= i && character <= chainEnd) {
      // The segment under the cursor; the cursor right after a name counts.
      // A '.' belongs to the name before it; a '[' starts its subscript.
      const content = (s: Segment) => (text[s.start] === '.' ? s.start + 1 : s.start);
      let k = segs.findIndex((s) => character >= content(s) && character < s.end);
      if (k < 0) k = segs.findIndex((s) => character === s.end);
      if (k < 0) return undefined;
      const root = text.slice(segs[0].start, segs[0].end);
      if (KEYWORDS.has(root)) return undefined;
      return text.slice(segs[0].start, segs[k].end);
    }
    i = chainEnd;
  }
  return undefined;
}

/** Whether `expr` is an expression the inspector accepts (a name/attribute/subscript chain). */
export function isInspectable(expr: string): boolean {
  const t = expr.trim();
  if (!t) return false;
  const segs = readChain(t, 0);
  return segs.length > 0 && segs[segs.length - 1].end === t.length && !KEYWORDS.has(t.slice(0, segs[0].end));
}
