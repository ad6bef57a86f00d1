module hello

go 1.21
