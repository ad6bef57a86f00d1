// prices: a Rust program for dapscope's lldb tests: Vec, slices, arrays,
// String/&str, HashMap/BTreeMap/BTreeSet, Option/Result, an enum, Box/Rc/Arc, and
// a Display impl that counts its calls (the probe must never run it).
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

static DISPLAY_CALLS: AtomicUsize = AtomicUsize::new(0);
static mut LIMIT: i32 = 17;

#[derive(Debug)]
enum Shape {
    Circle { r: f64 },
    Square(f64),
    Empty,
}

struct Quote {
    symbol: String,
    price: f64,
}

impl fmt::Display for Quote {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        DISPLAY_CALLS.fetch_add(1, Ordering::SeqCst);
        write!(f, "{} {}", self.symbol, self.price)
    }
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let mut prices: Vec<f64> = (0..n).map(|i| 100.0 + (i % 50) as f64).collect();
    if n > 3 {
        prices[3] = f64::NAN;
    }
    let slice: &[f64] = &prices[..10.min(n)];
    let arr: [i32; 4] = [1, 2, 3, 4];
    let name = String::from("ACME corp");
    let tag: &str = "equity";
    let mut counts: HashMap<String, i32> = HashMap::new();
    counts.insert("buy".to_string(), 3);
    counts.insert("sell".to_string(), 5);
    let mut ordered: BTreeMap<i32, &str> = BTreeMap::new();
    ordered.insert(1, "one");
    ordered.insert(2, "two");
    let big: BTreeMap<i32, i32> = (0..100).map(|i| (i, i * i)).collect();
    let seen: BTreeSet<i32> = (0..40).rev().map(|i| i * 3).collect();
    let some: Option<i32> = Some(5);
    let none: Option<i32> = None;
    let ok: Result<i32, String> = Ok(7);
    let shape = Shape::Circle { r: 1.5 };
    let square = Shape::Square(2.0);
    let empty = Shape::Empty;
    let boxed: Box<i32> = Box::new(9);
    let shared: Rc<Vec<i32>> = Rc::new(vec![1, 2, 3]);
    let atomic: Arc<String> = Arc::new("arc".to_string());
    let quote = Quote { symbol: "ACME".to_string(), price: 12.5 };
    let text = format!("{}", quote);
    let limit = unsafe { LIMIT };
    println!("{} {} {} {} {:?} {:?} {:?} {:?} {:?} {:?} {} {} {} {} {} {}", prices.len(), slice.len(), arr[0], name, counts.len(), ordered, some, none, ok, shape, boxed, shared.len(), atomic, text, tag, limit); // break here
    println!("{:?} {:?} {} {}", square, empty, big.len(), seen.len());
}
