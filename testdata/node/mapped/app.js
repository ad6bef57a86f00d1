// app.js: JavaScript with a source map that does not match it (the map was
// written for other.js): the adapter says so once and shows these lines.
"use strict";
function add(a, b) {
    return a + b; // @add
}
console.log(add(2, 3));
//# sourceMappingURL=app.js.map
