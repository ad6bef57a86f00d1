// engine_model.go: the facts a data engine gives of its own value, beside
// the table facts every engine shares with pandas (structure.columns,
// statistics.columns, preview): the probe's engines.py writes them.

package inspect

// EngineFacts is Structure.Engine: which engine holds the value and what
// it says without computing (plan, partitions, chunks), and what ran when
// something was computed.
type EngineFacts struct {
	// Name: polars, pyarrow, duckdb, spark, dask.
	Name string `json:"name"`
	// Lazy: a plan not yet run (a polars LazyFrame, a DuckDB relation, a
	// pyarrow Dataset, a Spark or Dask frame): its rows are counted only
	// when something was computed.
	Lazy bool `json:"lazy,omitempty"`
	// Plan: the engine's own explanation of the plan (explain()).
	Plan string `json:"plan,omitempty"`
	// Partitions: Spark's partitions, Dask's npartitions.
	Partitions *int64 `json:"partitions,omitempty"`
	// Divisions: a Dask frame's index divisions when known (edge values).
	Divisions []any `json:"divisions,omitempty"`
	// Chunks: a pyarrow ChunkedArray's (a Table's first column's) chunks.
	Chunks *int64 `json:"chunks,omitempty"`
	// Dataset and Fragments: a pyarrow Dataset's class and (asked for)
	// its fragments.
	Dataset   string   `json:"dataset,omitempty"`
	Fragments []string `json:"fragments,omitempty"`
	// Cluster: where a distributed frame's data lives (a Dask scheduler's
	// address, Spark's master); only bounded results came back from it.
	Cluster string `json:"cluster,omitempty"`
	// Computed names what ran ("computed by Spark: 2 jobs, 1.4 s").
	Computed string `json:"computed,omitempty"`
}
