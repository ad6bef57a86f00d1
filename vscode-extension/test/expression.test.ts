// Unit tests: the expression under the cursor (names, attribute and subscript
// chains, cut at the hovered segment; nothing in comments, strings, keywords).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expressionAt, isInspectable } from '../src/expression';

function at(lineWithCursor: string): string | undefined {
  const i = lineWithCursor.indexOf('|');
  return expressionAt(lineWithCursor.replace('|', ''), i);
}

test('plain names', () => {
  assert.equal(at('print(d|f.shape)'), 'df');
  assert.equal(at('|df = load()'), 'df');
  assert.equal(at('df| = load()'), 'df');
  assert.equal(at('total = price * qu|antity'), 'quantity');
});

test('attribute chains cut at the hovered segment', () => {
  assert.equal(at('x = self.ca|che.items'), 'self.cache');
  assert.equal(at('x = se|lf.cache.items'), 'self');
  assert.equal(at('x = self.cache.it|ems'), 'self.cache.items');
  assert.equal(at('x = self.cache|.items'), 'self.cache');
});

test('subscripts with int and string literals', () => {
  assert.equal(at("y = data['tr|ain']"), "data['train']");
  assert.equal(at('y = data["train"].col|umns'), 'data["train"].columns');
  assert.equal(at('v = obj.items[-1|]'), 'obj.items[-1]');
  assert.equal(at('v = arr[0][1].re|al'), 'arr[0][1].real');
  assert.equal(at('v = arr[i].x|'), undefined);
  assert.equal(at('v = ar|r[i].x'), 'arr');
});

test('calls and operators end the chain', () => {
  assert.equal(at('df.he|ad()'), 'df.head');
  assert.equal(at('len(d|f)'), 'df');
  assert.equal(at('a + b|'), 'b');
});

test('nothing on keywords, comments, strings, numbers and blanks', () => {
  assert.equal(at('de|f f(x):'), undefined);
  assert.equal(at('for x i|n xs:'), undefined);
  assert.equal(at('x = 1  # see d|f'), undefined);
  assert.equal(at('s = "hello d|f"'), undefined);
  assert.equal(at('n = 12|3'), undefined);
  assert.equal(at('   |   '), undefined);
  assert.equal(expressionAt('df', 10), undefined);
});

test('unicode identifiers and Go selectors', () => {
  assert.equal(at('données = ch|arger()'), 'charger');
  assert.equal(at('fmt.Println(cfg.Serv|er.Port)'), 'cfg.Server');
});

test('isInspectable accepts chains only', () => {
  assert.ok(isInspectable('df'));
  assert.ok(isInspectable("data['train'].x[3]"));
  assert.ok(!isInspectable('df.head()'));
  assert.ok(!isInspectable('a + b'));
  assert.ok(!isInspectable(''));
  assert.ok(!isInspectable('import'));
});
