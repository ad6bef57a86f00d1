// fails.ts: an uncaught error thrown two calls deep, in TypeScript.
interface Order {
  id: number;
  qty: number;
}

function check(o: Order): void {
  if (o.qty < 0) {
    throw new RangeError(`order ${o.id}: negative quantity ${o.qty}`); // @throw
  }
}

function load(orders: Order[]): number {
  orders.forEach(check);
  return orders.length;
}

console.log('loading');
load([{ id: 1, qty: 2 }, { id: 2, qty: -1 }]);
