// shapes.ts: the second module of the source-map test project (a
// breakpoint here binds only once the module is loaded).
export interface Shape {
  kind: 'square' | 'circle';
  side: number;
}

export function area(s: Shape): number {
  if (s.kind === 'square') {
    return s.side * s.side; // @area
  }
  return Math.PI * s.side * s.side;
}

export function fail(kind: string): never {
  throw new TypeError(`no shape ${kind}`); // @throw
}
