import FuzzDriver

runFuzzer { data, size in fuzzTokenizer(data, size) }
