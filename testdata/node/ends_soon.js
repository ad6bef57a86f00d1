// ends_soon.js: a program that ends by itself a moment after it starts
// (attached to, its end must end the session).
'use strict';
setTimeout(() => console.log('bye'), 1500);
