import FuzzDriver

runFuzzer { data, size in fuzzStoreFile(data, size) }
