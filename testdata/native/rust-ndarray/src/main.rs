// grid: a Rust program for dapscope's lldb tests with ndarray 0.17 arrays: a
// 1-D Array1<f64> with a NaN, a 2-D Array2<f64> (row-major), its
// transpose (a column-major view), a strided slice (every other element,
// not contiguous), an Array2<i32> and a 1200×1000 Array2<f32> (over the
// probe's sample bound); and an Array2<f64> of ndarray 0.16 (laid out
// without 0.17's `parts`).
use ndarray::{s, Array, Array1, Array2};

fn main() {
    let mut line: Array1<f64> = Array::from_iter((0..1000).map(|i| 100.0 + (i % 50) as f64));
    line[3] = f64::NAN;
    let grid: Array2<f64> = Array::from_shape_fn((3, 4), |(r, c)| (r * 4 + c) as f64);
    let transposed = grid.t();
    let every_other = line.slice(s![..;2]);
    let counts: Array2<i32> = Array::from_shape_fn((2, 3), |(r, c)| (r * 10 + c) as i32);
    // 1.2M elements: over the probe's sample bound, statistics on a sample
    let big: Array2<f32> = Array::from_shape_fn((1200, 1000), |(r, c)| (r + c) as f32);
    let old: ndarray16::Array2<f64> = ndarray16::Array::from_shape_fn((2, 2), |(r, c)| (r * 2 + c) as f64 + 0.5);
    println!("{} {} {} {} {} {} {}", line.len(), grid.sum(), transposed.dim().0, every_other.len(), counts.sum(), big.len(), old.sum()); // break here
}
