module rocm-perf.test/box-compile

go 1.22
