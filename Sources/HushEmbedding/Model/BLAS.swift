// Matrix products through the platform BLAS: Accelerate on Apple platforms (called from C, with its current
// CBLAS interface: Sources/HushKernels/AccelerateBLAS.c), OpenBLAS elsewhere.
import HushKernels

#if !canImport(Darwin)
    import COpenBLAS
    import Foundation
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
#endif

enum BLAS {
    /// C[m x n] = A[m x k] * B^T (B stored as n x k, the PyTorch `Linear.weight` layout).
    /// Leading dimensions are row strides in elements.
    @inline(__always)
    static func gemmNT(
        m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        sgemm(transposeB: true, Int32(m), Int32(n), Int32(k), a, Int32(lda), b, Int32(ldb), c, Int32(ldc))
    }

    /// C[m x n] = A[m x k] * B[k x n].
    @inline(__always)
    static func gemmNN(
        m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        sgemm(transposeB: false, Int32(m), Int32(n), Int32(k), a, Int32(lda), b, Int32(ldb), c, Int32(ldc))
    }

    #if canImport(Darwin)
        static func prepare() throws {}
        /// C = A * B (or B^T), alpha 1, beta 0, row-major.
        @inline(__always) private static func sgemm(
            transposeB: Bool, _ m: Int32, _ n: Int32, _ k: Int32, _ a: UnsafePointer<Float>, _ lda: Int32,
            _ b: UnsafePointer<Float>, _ ldb: Int32, _ c: UnsafeMutablePointer<Float>, _ ldc: Int32
        ) {
            hush_accelerate_sgemm(transposeB ? 1 : 0, m, n, k, a, lda, b, ldb, c, ldc)
        }
        /// The BLAS in use, for diagnostics.
        static var description: String { "Accelerate" }
    #else
        /// Loads OpenBLAS (once) and makes each call single-threaded: Hush spreads work over cores itself,
        /// one batch per thread.
        ///
        /// - Throws: `EmbeddingError.unsupportedModel` naming the package to install when no OpenBLAS is found.
        static func prepare() throws {
            switch library {
            case .success: return
            case .failure(let error): throw error
            }
        }

        /// The BLAS in use, for diagnostics ("OpenBLAS (SkylakeX)").
        static var description: String {
            guard case .success(let loaded) = library else { return "OpenBLAS (not loaded)" }
            return "OpenBLAS (\(loaded.coreName))"
        }

        /// C = A * B (or B^T), alpha 1, beta 0, row-major.
        @inline(__always) private static func sgemm(
            transposeB: Bool, _ m: Int32, _ n: Int32, _ k: Int32, _ a: UnsafePointer<Float>, _ lda: Int32,
            _ b: UnsafePointer<Float>, _ ldb: Int32, _ c: UnsafeMutablePointer<Float>, _ ldc: Int32
        ) {
            guard case .success(let loaded) = library else {
                preconditionFailure("BLAS.prepare() must succeed before the encoder runs")
            }
            loaded.sgemm(
                CblasRowMajor, CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans, m, n, k, 1, a, lda, b, ldb, 0, c,
                ldc)
        }

        private struct Loaded: @unchecked Sendable {
            // Sendable: C function pointers into a library that is never unloaded.
            let sgemm: hush_cblas_sgemm_fn
            let coreName: String
        }

        private static let library: Result<Loaded, EmbeddingError> = load()

        private static func load() -> Result<Loaded, EmbeddingError> {
            // OpenBLAS reads OPENBLAS_CORETYPE once, when it loads, and applies it to the whole process.
            // Hush chooses the kernels for its own copy (HUSH_BLAS_CORETYPE: "auto", the default, picks the
            // AVX-512 kernels on CPUs that have AVX-512; "inherit" keeps OPENBLAS_CORETYPE as it is; any
            // other value is passed on), then restores the variable so that the rest of the process sees
            // what it set.
            let requested = ProcessInfo.processInfo.environment["HUSH_BLAS_CORETYPE"] ?? "auto"
            let inherited = getenv("OPENBLAS_CORETYPE").map { String(cString: $0) }
            var chosen: String?
            switch requested {
            case "inherit": chosen = nil
            case "auto": chosen = hush_kernels_best_level() == HUSH_LEVEL_AVX512 ? "SkylakeX" : nil
            default: chosen = requested
            }
            if let chosen { setenv("OPENBLAS_CORETYPE", chosen, 1) }
            defer {
                if chosen != nil {
                    if let inherited {
                        setenv("OPENBLAS_CORETYPE", inherited, 1)
                    } else {
                        unsetenv("OPENBLAS_CORETYPE")
                    }
                }
            }
            let names = ["libopenblas.so.0", "libopenblas.so", "libopenblasp.so.0", "libblas.so.3"]
            guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else {
                return .failure(
                    .unsupportedModel(
                        reason:
                            "no BLAS library found (tried \(names.joined(separator: ", "))): install libopenblas-dev (scripts/setup does)"
                    ))
            }
            guard let sgemmSymbol = dlsym(handle, "cblas_sgemm") else {
                return .failure(
                    .unsupportedModel(reason: "the BLAS library has no cblas_sgemm: install libopenblas-dev"))
            }
            if let symbol = dlsym(handle, "openblas_set_num_threads") {
                unsafeBitCast(symbol, to: hush_openblas_set_num_threads_fn.self)(1)
            }
            var coreName = "generic CBLAS"
            if let symbol = dlsym(handle, "openblas_get_corename"),
                let name = unsafeBitCast(symbol, to: hush_openblas_get_corename_fn.self)()
            {
                coreName = String(cString: name)
            }
            return .success(Loaded(sgemm: unsafeBitCast(sgemmSymbol, to: hush_cblas_sgemm_fn.self), coreName: coreName))
        }
    #endif
}
