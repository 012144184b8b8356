import FuzzDriver

runFuzzer { data, size in fuzzJSONL(data, size) }
