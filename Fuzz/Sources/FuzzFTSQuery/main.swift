import FuzzDriver

runFuzzer { data, size in fuzzFTSQuery(data, size) }
