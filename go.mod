module github.com/dapscope/dapscope

go 1.26.8
