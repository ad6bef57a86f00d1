// surrogates.js: strings holding half of a UTF-16 surrogate pair, which V8
// sends as lone escapes ("\ud83d"): a local at a debugger statement, then
// an uncaught error whose message has one. Tests find lines by "// @name".
'use strict';

function main() {
  const half = '😀'.slice(0, 1);
  const whole = '😀';
  debugger; // @stop
  throw new Error('bad ' + half + whole); // @throw
}

main();
