import FuzzDriver

runFuzzer { data, size in fuzzCSV(data, size) }
