// orders.ts: a TypeScript table to browse from the CLI
// (cmd_inspect_node_test.go) on Node 24's type stripping: 200 typed
// records, the stop at the line marked "// @stop".
interface Order {
  sku: string;
  qty: number;
  price: number | null;
  city: 'Nice' | 'Lyon' | 'Brest';
}

const cities: Order['city'][] = ['Nice', 'Lyon', 'Brest'];

function load(n: number): Order[] {
  return Array.from({ length: n }, (_, i): Order => ({
    sku: 'S' + String((i * 37) % 200).padStart(3, '0'),
    qty: (i * 7) % 11,
    price: i % 9 === 4 ? null : ((i * 13) % 50) / 2,
    city: cities[i % 3],
  }));
}

const orders: Order[] = load(200);
const minQty: number = 5;
console.log(orders.length, minQty); // @stop
