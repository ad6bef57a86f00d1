// main.ts: a small TypeScript project the source-map tests compile (tsc,
// esbuild) and debug: an enum, a namespace, a decorator and a parameter
// property, syntax Node's type stripping cannot run. Tests find lines by
// their "// @name" markers, never by number.
import { Shape, area, fail } from './shapes';

declare const process: { argv: string[] }; // no @types/node needed

enum Color {
  Red = 'red',
  Green = 'green',
}

namespace Geometry {
  export function scale(n: number, by: number): number {
    const scaled = n * by; // @scale
    return scaled;
  }
}

function logged(target: object, key: string, desc: PropertyDescriptor): PropertyDescriptor {
  const inner = desc.value as (...args: unknown[]) => unknown; // @logged
  desc.value = function (this: unknown, ...args: unknown[]) {
    return inner.apply(this, args);
  };
  return desc;
}

class Painter {
  constructor(private readonly color: Color) {}

  @logged // @decorate
  paint(shape: Shape): string {
    const a = area(shape); // @paint
    return `${this.color} ${Geometry.scale(a, 2)}`; // @scaled
  }
}

const painter = new Painter(Color.Green);
const out = painter.paint({ kind: 'square', side: 3 }); // @call
console.log(out);
if (process.argv.includes('fail')) {
  fail('circle'); // @fail
}
