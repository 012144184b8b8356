import FuzzDriver

runFuzzer { data, size in fuzzE5S1(data, size) }
