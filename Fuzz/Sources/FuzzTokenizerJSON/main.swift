import FuzzDriver

runFuzzer { data, size in fuzzTokenizerJSON(data, size) }
