import Foundation
import HushTestSupport
import Testing

/// The privacy manifests Xcode's privacy report reads from the library targets: no tracking, no data collected,
/// and the reasons for the file timestamp calls Hush makes (`stat`, `lstat`, `fstat`: a file's size and date for
/// the model's digest cache, the documents read from the folders an app gives, the store's size).
@Suite struct PrivacyManifestTests {
    @Test(arguments: ["Hush", "HushEmbedding"])
    func eachLibraryDeclaresItsFileTimestampReasonsAndCollectsNothing(target: String) throws {
        let url = Repository.root.appendingPathComponent("Sources/\(target)/PrivacyInfo.xcprivacy")
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        #expect((plist["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
        #expect((plist["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        let accessed = try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        let timestamps = accessed.first {
            $0["NSPrivacyAccessedAPIType"] as? String == "NSPrivacyAccessedAPICategoryFileTimestamp"
        }
        #expect(Set(timestamps?["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? []) == ["C617.1", "3B52.1"])
    }
}
