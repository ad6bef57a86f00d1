// syntax_error.js: does not parse.
const a = ;
