// Matrix products through the platform BLAS: Accelerate on Apple platforms, OpenBLAS elsewhere.
#if canImport(Accelerate)
    import Accelerate
#else
    import COpenBLAS
#endif

enum BLAS {
    /// C[m x n] = A[m x k] * B^T (B stored as n x k, the PyTorch `Linear.weight` layout) (+ C when `accumulate`).
    /// Leading dimensions are row strides in elements.
    @inline(__always)
    static func gemmNT(
        m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        c: UnsafeMutablePointer<Float>, ldc: Int, accumulate: Bool = false
    ) {
        cblas_sgemm(
            CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(n), Int32(k), 1, a, Int32(lda), b, Int32(ldb),
            accumulate ? 1 : 0, c, Int32(ldc))
    }

    /// C[m x n] = A[m x k] * B[k x n].
    @inline(__always)
    static func gemmNN(
        m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        cblas_sgemm(
            CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(m), Int32(n), Int32(k), 1, a, Int32(lda), b, Int32(ldb), 0,
            c, Int32(ldc))
    }

    /// Makes each BLAS call single-threaded: Hush spreads work over cores itself, one batch per thread.
    static func useOneThreadPerCall() {
        #if !canImport(Accelerate)
            openblas_set_num_threads(1)
        #endif
    }
}
