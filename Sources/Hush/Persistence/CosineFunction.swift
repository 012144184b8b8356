import Foundation
import GRDB
import HushKernels

/// The `hush_cosine(a, b)` SQL function, registered on every connection of a store: the cosine similarity
/// of two f32 little-endian vector BLOBs, or NULL when either is NULL, not a BLOB, of a length that is not a
/// multiple of 4, of different lengths, or of zero norm.
///
/// ```sql
/// SELECT hush_cosine(a.vector, b.vector) FROM vectors a, vectors b WHERE a.chunk_id = 1 AND b.chunk_id = 2;
/// ```
enum CosineFunction {
    static let function = DatabaseFunction("hush_cosine", argumentCount: 2, pure: true) { values in
        guard values.count == 2,
            let a = Data.fromDatabaseValue(values[0]), let b = Data.fromDatabaseValue(values[1]),
            case .blob = values[0].storage, case .blob = values[1].storage,
            a.count == b.count
        else { return nil }
        return cosine(a, b).map { Double($0) }
    }

    static func cosine(_ a: Data, _ b: Data) -> Float? {
        guard let x = VectorBlob.decode(a), let y = VectorBlob.decode(b), x.count == y.count else { return nil }
        let n = x.count
        let (dot, xx, yy) = x.withUnsafeBufferPointer { xp in
            y.withUnsafeBufferPointer { yp -> (Float, Float, Float) in
                guard let xb = xp.baseAddress, let yb = yp.baseAddress else { return (0, 0, 0) }
                return (hush_dot_f32(xb, yb, n), hush_dot_f32(xb, xb, n), hush_dot_f32(yb, yb, n))
            }
        }
        let denominator = (xx * yy).squareRoot()
        guard denominator > 0, denominator.isFinite, dot.isFinite else { return nil }
        return dot / denominator
    }
}
