// A small run-time description of JSON shapes, tied to TypeScript types at
// compile time: object<T>({...}) must list exactly T's keys, required ones
// with req() and optional ones with opt(). check() reports every member a
// value has that its type lacks, every required member it misses, and
// objects or arrays where the type has none. Leaf types are checked by the
// compiler (typed assignment of the fixtures), not here.

export type Shape =
  | { t: 'leaf' }
  | { t: 'object'; fields: Record<string, Field> }
  | { t: 'array'; of: Shape }
  | { t: 'record'; of: Shape }
  | { t: 'nullable'; of: Shape }
  | { t: 'lazy'; get: () => Shape };

export interface Field {
  required: boolean;
  shape: Shape;
}
interface Req extends Field {
  required: true;
}
interface Opt extends Field {
  required: false;
}

/** One entry per key of T: req() for a required key, opt() for an optional one. */
export type FieldsOf<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? Opt : Req };

export const leaf: Shape = { t: 'leaf' };
export const req = (shape: Shape = leaf): Req => ({ required: true, shape });
export const opt = (shape: Shape = leaf): Opt => ({ required: false, shape });
export const object = <T>(fields: FieldsOf<T>): Shape => ({ t: 'object', fields: fields as Record<string, Field> });
export const array = (of: Shape): Shape => ({ t: 'array', of });
export const record = (of: Shape): Shape => ({ t: 'record', of });
export const nullable = (of: Shape): Shape => ({ t: 'nullable', of });
/** A shape defined later (recursive types). */
export const lazy = (get: () => Shape): Shape => ({ t: 'lazy', get });

/** The problems of `v` against `s`, each with its JSON path; empty when it fits. */
export function check(v: unknown, s: Shape, path = '$'): string[] {
  switch (s.t) {
    case 'leaf':
      return [];
    case 'lazy':
      return check(v, s.get(), path);
    case 'nullable':
      return v === null ? [] : check(v, s.of, path);
    case 'array':
      if (!Array.isArray(v)) return [`${path}: want an array, got ${JSON.stringify(v)}`];
      return v.flatMap((x, i) => check(x, s.of, `${path}[${i}]`));
    case 'record':
      if (!isObject(v)) return [`${path}: want an object, got ${JSON.stringify(v)}`];
      return Object.entries(v).flatMap(([k, x]) => check(x, s.of, `${path}.${k}`));
    case 'object': {
      if (!isObject(v)) return [`${path}: want an object, got ${JSON.stringify(v)}`];
      const out: string[] = [];
      for (const [k, x] of Object.entries(v)) {
        const f = s.fields[k];
        if (!f) out.push(`${path}.${k}: not in the TypeScript type`);
        else out.push(...check(x, f.shape, `${path}.${k}`));
      }
      for (const [k, f] of Object.entries(s.fields)) if (f.required && !(k in v)) out.push(`${path}.${k}: required by the TypeScript type, missing`);
      return out;
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
