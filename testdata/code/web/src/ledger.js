// An append-only ledger.
export default class Ledger {
  constructor() {
    this.entries = [];
  }

  record(x) {
    this.entries.push(x);
    return this.entries.length;
  }

  undo() {
    return this.entries.pop();
  }
}
