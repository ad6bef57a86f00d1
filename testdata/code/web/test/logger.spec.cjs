const { test } = require('node:test');
const { persist } = require('../src/logger.cjs');

test('persist writes the file', () => {
  persist('/dev/null', 'x');
});
