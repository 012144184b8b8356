import FuzzDriver

runFuzzer { data, size in fuzzSafeTensors(data, size) }
