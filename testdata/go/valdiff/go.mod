module valdiff

go 1.21
