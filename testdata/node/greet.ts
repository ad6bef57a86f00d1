// greet.ts: TypeScript run by Node's own type stripping (Node >= 22.6):
// interfaces, generics, annotations and a type-only import vanish into
// blanks, so every line below is where V8 sees it. Tests find lines by their
// "// @name" markers.
import type { Server } from 'node:http';

interface Person {
  name: string;
  age: number;
}

type Greeting = `hello ${string}`;

function greet<T extends Person>(p: T, loud: boolean = false): Greeting {
  const text: Greeting = `hello ${p.name}`; // @greet
  const shout: string = loud ? text.toUpperCase() : text; // @shout
  return shout as Greeting;
}

class Team<M extends Person> {
  private members: M[] = [];
  add(m: M): this {
    this.members.push(m);
    return this;
  }
  oldest(): M | undefined {
    return [...this.members].sort((a: M, b: M) => b.age - a.age)[0]; // @oldest
  }
}

const server: Server | null = null;
const team = new Team<Person>().add({ name: 'ada', age: 36 }).add({ name: 'alan', age: 41 });
const who: Person = team.oldest()!;
console.log(greet(who, server === null)); // @call
