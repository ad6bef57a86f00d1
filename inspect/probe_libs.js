// dapscope JavaScript probe, part 4: data libraries recognised by duck
// typing (apache-arrow, arquero, nodejs-polars, danfojs).

function inspectLibrary(v, opts, B, res) { return false; }
