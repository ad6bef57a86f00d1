// app.js: JavaScript as a compiler writes it, with a source map that names
// app.ts; the node adapter does not follow maps and says so once.
"use strict";
function add(a, b) {
    return a + b; // @add
}
console.log(add(2, 3));
//# sourceMappingURL=app.js.map
