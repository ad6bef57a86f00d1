// dapscope JavaScript probe: dates — a Date's text without
// Date.prototype.toISOString, which costs ~3× more per cell (a page of
// 100 records with a date column spent a sixth of the probe's time there;
// issue #32): the same text, written from the time value by integer
// arithmetic (civil date from days, H. Hinnant's algorithm), for years 0
// to 9999; other years (toISOString's ±YYYYYY form) go through
// toISOString.

const ISO_MIN = -62167219200000, ISO_MAX = 253402300799999; // 0000-01-01 .. 9999-12-31

function pad2(n) { return n < 10 ? '0' + n : '' + n; }

// isoText is new Date(t).toISOString() for a finite t in [ISO_MIN, ISO_MAX].
function isoText(t) {
  const days = M.floor(t / 86400000), ms = t - days * 86400000;
  const z = days + 719468, era = M.floor(z / 146097), doe = z - era * 146097;
  const yoe = M.floor((doe - M.floor(doe / 1460) + M.floor(doe / 36524) - M.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + M.floor(yoe / 4) - M.floor(yoe / 100)), mp = M.floor((5 * doy + 2) / 153);
  const d = doy - M.floor((153 * mp + 2) / 5) + 1, m = mp < 10 ? mp + 3 : mp - 9, y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const f = ms % 1000;
  return (y < 10 ? '000' : y < 100 ? '00' : y < 1000 ? '0' : '') + y + '-' + pad2(m) + '-' + pad2(d) + 'T' +
    pad2(M.floor(ms / 3600000)) + ':' + pad2(M.floor(ms / 60000) % 60) + ':' + pad2(M.floor(ms / 1000) % 60) + '.' +
    (f < 10 ? '00' : f < 100 ? '0' : '') + f + 'Z';
}
