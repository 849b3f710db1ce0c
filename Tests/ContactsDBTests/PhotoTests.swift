import CVips
import Foundation
import GRDB
import Testing
@testable import ContactsDB

/// Contacts' photos through the library: stored beside the contact, left
/// out of list queries, given back byte for byte by vCard and JSON.
@Suite struct PhotoTests {
    static func sample(_ format: cvips_format, _ width: Int = 640, _ height: Int = 480) throws -> Data {
        try PhotoImage.sample(width: width, height: height, format: format)
    }

    static func addAnna(_ store: ContactStore) throws -> Contact {
        try store.add(ContactDraft(firstName: "Anna", lastName: "Berg"))
    }

    @Test(arguments: [(CVIPS_JPEG, "image/jpeg"), (CVIPS_PNG, "image/png"), (CVIPS_WEBP, "image/webp"),
                      (CVIPS_HEIC, "image/heic")])
    func aPhotoIsKeptAsGivenWithAThumbnail(format: cvips_format, mediaType: String) throws {
        let store = try ContactStore.makeEmpty()
        let anna = try Self.addAnna(store)
        let bob = try store.add(ContactDraft(firstName: "Bob", lastName: "Cole"))
        let data = try Self.sample(format)
        let stored = try store.setPhoto(id: anna.id, data: data)
        #expect(stored.hasPhoto && stored.photo == ContactPhoto(mediaType: mediaType, data: data))
        #expect(try store.photo(id: anna.id)?.data == data)
        let thumbnail = try #require(try store.thumbnail(id: anna.id))
        let decoded = try PhotoImage(thumbnail.data)
        #expect((decoded.width, decoded.height, thumbnail.mediaType) == (256, 256, "image/jpeg"))
        #expect(try store.photo(id: bob.id) == nil && store.thumbnail(id: bob.id) == nil)

        // A list knows who has a photo without reading it.
        let listed = try store.contacts(matching: ContactQuery())
        #expect(listed.map(\.hasPhoto) == [true, false] && listed.allSatisfy { $0.photo == nil })
        #expect(try store.ids(matching: ContactQuery().filter(.has(.photo))) == [anna.id])
        #expect(try store.count(matching: ContactQuery().filter(.has(.photo))) == 1)
        let page = try store.contactsWithThumbnails(matching: ContactQuery())
        #expect(page.map(\.contact.id) == [anna.id, bob.id])
        #expect(page.map(\.thumbnail) == [thumbnail, nil])
        #expect(try store.diagnose().allSatisfy(\.isHealthy))

        let removed = try store.removePhoto(id: anna.id)
        #expect(!removed.hasPhoto && removed.photo == nil)
        #expect(try store.rowCount("contactPhoto") == 0 && store.count(matching: ContactQuery().filter(.has(.photo))) == 0)
        #expect(try store.diagnose().allSatisfy(\.isHealthy))
    }

    @Test func anUpdateKeepsThePhotoAndADeleteTakesIt() throws {
        let store = try ContactStore.makeEmpty()
        let anna = try Self.addAnna(store)
        let data = try Self.sample(CVIPS_PNG)
        try store.setPhoto(id: anna.id, data: data)
        try store.update(id: anna.id) { $0.company = "Lindenbaum" }
        #expect(try store.photo(id: anna.id)?.data == data)
        try store.delete(ids: [anna.id])
        #expect(try store.rowCount("contactPhoto") == 0)
    }

    @Test func unknownIdsAreNotFound() throws {
        let store = try ContactStore.makeEmpty()
        let data = try Self.sample(CVIPS_JPEG)
        #expect(captureError { try store.setPhoto(id: "nobody", data: data) } == .contactsNotFound(ids: ["nobody"]))
        #expect(captureError { _ = try store.photo(id: "nobody") } == .contactsNotFound(ids: ["nobody"]))
        #expect(captureError { try store.removePhoto(id: "nobody") } == .contactsNotFound(ids: ["nobody"]))
    }

    /// Each hostile photo of issue 16, refused for typed input with nothing
    /// written, and kept as given without a thumbnail when imported.
    static func hostile() throws -> [(name: String, data: Data)] {
        let jpeg = try sample(CVIPS_JPEG)
        var big = try sample(CVIPS_JPEG, 64, 64)
        big.append(Data(count: PhotoImage.maximumBytes + 1 - big.count))
        return [
            ("not an image", Data("hello, world".utf8)),
            ("truncated", jpeg.prefix(jpeg.count / 2)),
            ("a decompression bomb", try PhotoImageTests.pngDeclaring(20_000, 20_000)),
            ("more than 10 MB", big),
            ("an SVG", Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"/>"#.utf8)),
        ]
    }

    @Test func hostilePhotosAreRefusedForTypedInput() throws {
        let store = try ContactStore.makeEmpty()
        let anna = try Self.addAnna(store)
        for (name, data) in try Self.hostile() {
            guard case .invalidPhoto? = captureError({ try store.setPhoto(id: anna.id, data: data) }) else {
                Issue.record("\(name) was taken")
                continue
            }
            var draft = ContactDraft(firstName: "Eve")
            draft.photo = ContactPhoto(mediaType: "image/jpeg", data: data)
            guard case .invalidPhoto? = captureError({ try store.add(draft) }) else {
                Issue.record("\(name) was taken by add")
                continue
            }
        }
        #expect(try store.rowCount("contactPhoto") == 0 && store.rowCount("contact") == 1)
        #expect(try store.contact(id: anna.id) == anna)
    }

    @Test func hostilePhotosAreKeptWithoutAThumbnailWhenImported() throws {
        let store = try ContactStore.makeEmpty()
        let hostile = try Self.hostile()
        let json = "[" + hostile.enumerated().map { index, entry in
            #"{"id": "c\#(index)", "firstName": "Eve", "photo": {"mediaType": "image/jpeg", "data": "\#(entry.data.base64EncodedString())"}}"#
        }.joined(separator: ",") + "]"
        let report = try store.importContacts(from: [.data(Data(json.utf8), source: "hostile.json")])
        #expect(report.imported == hostile.count && report.unusual.undecodablePhotos == hostile.count)
        #expect(report.unusual.summary.contains("\(hostile.count) undecodable photos"))
        for (index, entry) in hostile.enumerated() {
            #expect(try store.photo(id: "c\(index)")?.data == entry.data, "\(entry.name)")
            #expect(try store.thumbnail(id: "c\(index)") == nil, "\(entry.name)")
        }
        #expect(try store.count(matching: ContactQuery().filter(.has(.photo))) == hostile.count)
    }

    @Test func aPhotoImportedFromVCard21ComesOutIn30And40ByteForByte() throws {
        let data = try Self.sample(CVIPS_JPEG)
        // vCard 2.1 as phones write it: folded base64, ended by a blank line.
        let base64 = data.base64EncodedString()
        let folded = stride(from: 0, to: base64.count, by: 72).map { offset -> String in
            let start = base64.index(base64.startIndex, offsetBy: offset)
            return "  " + base64[start..<(base64.index(start, offsetBy: 72, limitedBy: base64.endIndex) ?? base64.endIndex)]
        }
        let card = (["BEGIN:VCARD", "VERSION:2.1", "N:Berg;Anna;;;", "UID:anna", "PHOTO;ENCODING=BASE64;JPEG:"]
            + folded + ["", "END:VCARD", ""]).joined(separator: "\r\n")
        let store = try ContactStore.makeEmpty()
        let report = try store.importContacts(from: [.data(Data(card.utf8), source: "anna.vcf")])
        #expect(report.imported == 1 && report.unusual.isEmpty && report.extraProperties.isEmpty)
        let anna = try #require(try store.contact(id: "anna"))
        #expect(anna.photo == ContactPhoto(mediaType: "image/jpeg", data: data) && anna.extra.isEmpty)
        #expect(try store.thumbnail(id: "anna") != nil)

        for version in VCardVersion.allCases {
            let exported = anna.vCard(version: version)
            #expect(exported.contains(version == .v4 ? "PHOTO:data:image/jpeg;base64,/9j/" : "PHOTO;ENCODING=b;TYPE=JPEG:/9j/"))
            let again = try ContactStore.makeEmpty()
            try again.importContacts(Data(exported.utf8), source: "anna.vcf")
            #expect(try again.photo(id: "anna") == ContactPhoto(mediaType: "image/jpeg", data: data), "\(version)")
        }
    }

    @Test func aPhotoByURLAndASecondPhotoStayExtraProperties() throws {
        let data = try Self.sample(CVIPS_PNG, 64, 64).base64EncodedString()
        let card = """
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Anna Berg\r
            UID:anna\r
            PHOTO:https://example.com/anna.jpg\r
            PHOTO:data:image/png;base64,\(data)\r
            END:VCARD\r

            """
        let store = try ContactStore.makeEmpty()
        try store.importContacts(Data(card.utf8), source: "anna.vcf")
        let anna = try #require(try store.contact(id: "anna"))
        #expect(anna.photo == nil && anna.extra.count == 2)
    }

    @Test func jsonExportCarriesThePhotoAndImportsItAgain() throws {
        let store = try ContactStore.makeEmpty()
        let anna = try Self.addAnna(store)
        let data = try Self.sample(CVIPS_WEBP)
        let stored = try store.setPhoto(id: anna.id, data: data)
        let json = stored.jsonText
        #expect(json.contains(#""photo": {"mediaType": "image/webp", "data": "\#(data.base64EncodedString())"}"#))
        #expect(json.contains(#""hasPhoto": true"#))
        // What a list prints holds no image bytes.
        let listed = try #require(try store.contacts(matching: ContactQuery()).first)
        #expect(listed.jsonText.contains(#""hasPhoto": true"#) && !listed.jsonText.contains("\"photo\""))

        let again = try ContactStore.makeEmpty()
        try again.importContacts(Data("[\(json)]".utf8), source: "anna.json")
        #expect(try again.photo(id: anna.id) == ContactPhoto(mediaType: "image/webp", data: data))
        #expect(try again.thumbnail(id: anna.id) != nil)
    }
}
