import CVips
import ContactsDB
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import ContactsDBServer

/// One contact's routes: read, add, update, delete, move, the phone
/// field's formatting, and its photo and thumbnail.
@Suite struct ContactRouteTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    @Test func aContactIsReadWithItsPhonesAsShownAndItsLinks() async throws {
        try await server.test { client in
            let answer = try await client.get("/api/contact?id=seed-anna-muller")
            #expect(answer.status == .ok)
            let body = try answer.object()
            let contact = try #require(body["contact"] as? [String: Any])
            #expect(contact["id"] as? String == "seed-anna-muller" && contact["firstName"] as? String == "Anna")
            let phones = try #require(contact["phones"] as? [Any])
            #expect((body["phonesShown"] as? [String])?.count == phones.count)
            #expect((body["linked"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aMissingIdIs400AndAnUnknownOne404() async throws {
        try await server.test { client in
            for (method, path) in [(HTTPRequest.Method.get, "/api/contact"), (.patch, "/api/contact?id="), (.delete, "/api/contact"),
                                   (.post, "/api/move?to=x"), (.get, "/api/photo"), (.get, "/api/thumbnail"),
                                   (.post, "/api/unlink"), (.get, "/api/history"), (.post, "/api/history/restore?revision=1")] {
                let answer = try await client.send(method, path, json: method == .patch ? "{}" : nil)
                #expect(answer.status == .badRequest, "\(method) \(path)")
                #expect(answer.text.contains("Give the contact's id."), "\(method) \(path)")
            }
            let unknown = try await client.get("/api/contact?id=nobody")
            #expect(unknown.status == .notFound)
            #expect((try unknown.object()["error"] as? String)?.contains("nobody") == true)
            #expect(try await client.send(.delete, "/api/contact?id=nobody").status == .notFound)
            #expect(try await client.send(.patch, "/api/contact?id=nobody", json: "{}").status == .notFound)
        }
    }

    @Test func anAddedContactIs201WithItsIdAndAnInvalidOne422WithTheField() async throws {
        try await server.test { client in
            let added = try await client.send(.post, "/api/contact", json: #"{"firstName": "Ada", "lastName": "Lovelace"}"#)
            #expect(added.status == .created)
            let id = try #require(try added.object()["id"] as? String)
            let stored = try #require(try server.store.contact(id: id))
            #expect(stored.displayName == "Ada Lovelace")
            #expect(try server.store.history(id: id).first?.by == .web)

            let invalid = try await client.send(.post, "/api/contact", json: #"{"firstName": "Bob", "phones": [{"value": "12-34"}]}"#)
            #expect(invalid.status == .unprocessableContent)
            let error = try invalid.object()
            #expect(error["field"] as? String == "phones[0].value")
            #expect((error["error"] as? String)?.isEmpty == false)
            #expect(try server.store.count(matching: ContactQuery()) == 11, "nothing more was written")

            let malformed = try await client.send(.post, "/api/contact", json: "{")
            #expect(malformed.status == .unprocessableContent)
            let unknownBook = try await client.send(.post, "/api/contact?book=nowhere", json: #"{"firstName": "Cy"}"#)
            #expect(unknownBook.status == .badRequest)
            #expect(try unknownBook.object()["field"] as? String == "book")
        }
    }

    @Test func anUpdateAtAStaleRevisionIs409AndAtTheCurrentOneWrites() async throws {
        let revision = try #require(try server.store.contact(id: "seed-anna-muller")).revision
        try await server.test { client in
            let path = "/api/contact?id=seed-anna-muller"
            let updated = try await client.send(.patch, path + "&revision=\(revision)", json: #"{"nickname": "Annie"}"#)
            #expect(updated.status == .ok)
            #expect(try updated.object()["id"] as? String == "seed-anna-muller")
            let anna = try #require(try server.store.contact(id: "seed-anna-muller"))
            #expect(anna.nickname == "Annie" && anna.revision == revision + 1)

            let stale = try await client.send(.patch, path + "&revision=\(revision)", json: #"{"nickname": "Ann"}"#)
            #expect(stale.status == .conflict)
            #expect(try server.store.contact(id: "seed-anna-muller")?.nickname == "Annie")
            let staleDelete = try await client.send(.delete, path + "&revision=\(revision)")
            #expect(staleDelete.status == .conflict)

            let deleted = try await client.send(.delete, path + "&revision=\(revision + 1)")
            #expect(deleted.status == .ok)
            #expect(try deleted.object()["deleted"] as? String == "seed-anna-muller")
            #expect(try server.store.contact(id: "seed-anna-muller") == nil)
        }
    }

    @Test func aContactMovesToAnotherBook() async throws {
        try server.store.createBook(named: "work")
        try await server.test { client in
            let moved = try await client.send(.post, "/api/move?id=seed-acme&to=work")
            #expect(moved.status == .ok)
            #expect(try moved.object()["moved"] as? [String] == ["seed-acme"])
            #expect(try server.store.contact(id: "seed-acme")?.book == "work")
            let nowhere = try await client.send(.post, "/api/move?id=seed-acme&to=nowhere")
            #expect(nowhere.status == .badRequest)
            #expect(try nowhere.object()["field"] as? String == "book")
        }
    }

    @Test func thePhoneFieldIsFormattedAsTypedInTheFirstRegion() async throws {
        let region = try #require(try server.store.phoneRegions().codes.first)
        try await server.test { client in
            let typed = "+44 20794"
            let answer = try await client.get("/api/phone-format?text=\(typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            #expect(answer.status == .ok)
            #expect(try answer.object()["shown"] as? String == AsYouTypeFormatter(region: region).format("+4420794"))
            #expect(try await client.get("/api/phone-format").object()["shown"] as? String == "")
        }
    }

    @Test func aPhotoThatIsAnImageGoesAsItsTypeAndAnyOtherAsASandboxedDownload() async throws {
        let image = try PhotoImage.sample(width: 640, height: 480, format: CVIPS_JPEG)
        _ = try server.store.setPhoto(id: "seed-anna-muller", data: image)
        let page = Data("<!doctype html><script>alert(1)</script>".utf8).base64EncodedString()
        let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:xss-page\r\nFN:Photo page\r\nPHOTO:data:text/html;base64,\(page)\r\nEND:VCARD\r\n"
        try server.store.importContacts(Data(card.utf8), source: "photos.vcf")
        try await server.test { client in
            let photo = try await client.get("/api/photo?id=seed-anna-muller")
            #expect(photo.status == .ok && photo.headers[.contentType] == "image/jpeg")
            #expect(Data(photo.body.readableBytesView) == image)
            #expect(photo.headers[.contentDisposition] == nil)
            #expect(photo.headers[.contentSecurityPolicy]?.hasSuffix("; sandbox") == true)
            let thumbnail = try await client.get("/api/thumbnail?id=seed-anna-muller")
            #expect(thumbnail.status == .ok && ["image/jpeg", "image/webp"].contains(thumbnail.headers[.contentType] ?? ""))

            let hostile = try await client.get("/api/photo?id=xss-page")
            #expect(hostile.status == .ok)
            #expect(hostile.headers[.contentType] == "application/octet-stream")
            #expect(hostile.headers[.contentDisposition] == "attachment")
            #expect(hostile.headers[.contentSecurityPolicy]?.hasSuffix("; sandbox") == true)
            #expect(hostile.headers[.xContentTypeOptions] == "nosniff")

            let none = try await client.get("/api/photo?id=seed-acme")
            #expect(none.status == .notFound && none.text == "No photo.\n")
        }
    }
}
