import Testing
import HushKernels

@Suite struct KernelSmokeTests {
    @Test func dotProduct() {
        let a: [Float] = [1, 2, 3]
        let b: [Float] = [4, 5, 6]
        #expect(hush_dot_f32(a, b, 3) == 32)
    }
}
