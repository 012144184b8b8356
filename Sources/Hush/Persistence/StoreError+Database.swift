import Foundation
import GRDB

extension StoreError {
    /// The store error for `error`, which a database call on the file at `path` threw: a busy or locked file
    /// is ``busy(path:)`` (never "not a store"), a write refused by the file system is
    /// ``readOnly(path:operation:)``, a file that is not a database is ``notAStore(path:reason:)``, and Hush's
    /// own typed errors pass through unchanged.
    static func wrapping(_ error: any Error, path: String?, operation: String = "write") -> any Error {
        if error is any TypedError || error is CancellationError {
            return error
        }
        let displayPath = path ?? ":memory:"
        guard let database = error as? DatabaseError else {
            return StoreError.database(DatabaseFailure(message: DatabaseMessage.text(error), cause: error))
        }
        switch database.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StoreError.busy(path: displayPath)
        case .SQLITE_READONLY:
            return StoreError.readOnly(path: displayPath, operation: operation)
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return StoreError.notAStore(path: displayPath, reason: database.message ?? "not a database")
        default:
            return StoreError.database(
                DatabaseFailure(
                    message: DatabaseMessage.text(database), resultCode: database.resultCode.primaryResultCode.rawValue,
                    cause: database))
        }
    }
}

/// What a failure says to a person: for SQLite, its result code and message without the statement (GRDB's
/// description of a `DatabaseError` appends the SQL that failed, which is Hush's business, not the user's).
///
/// ```swift
/// DatabaseMessage.text(error)  // "SQLite error 19: UNIQUE constraint failed: documents.external_id"
/// ```
enum DatabaseMessage {
    static func text(_ error: any Error) -> String {
        guard let database = error as? DatabaseError else { return String(describing: error) }
        let code = database.resultCode.rawValue
        return "SQLite error \(code): \(database.message ?? "unknown error")"
    }
}
