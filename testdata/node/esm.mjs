// esm.mjs: an ES module importing another, for the Node adapter's tests.
import { double } from './lib.mjs';

const n = double(21);
console.log('esm', n); // @esm
