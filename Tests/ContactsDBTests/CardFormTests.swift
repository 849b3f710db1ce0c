import Foundation
import Testing

@testable import ContactsDB

/// The form the web app builds from ``CardForm``: every field of a draft
/// is in it once, and each list's parts are keys its entries hold.
@Suite struct CardFormTests {
    /// What the page shows its own way, outside the form's sections.
    private static let shownApart: Set = ["favorite", "groups", "photo"]

    private static var keys: [String] {
        CardForm.card.sections.flatMap { section -> [String] in
            switch section {
            case let .texts(_, texts): texts.map(\.key)
            case let .list(list): [list.key]
            }
        }
    }

    @Test func everyFieldOfADraftIsInTheFormOnce() {
        let fields = Set(ContactField.all.map(\.name)).subtracting(Self.shownApart)
        #expect(Self.keys.sorted() == fields.sorted())
    }

    /// A group that placed another group's text, or one that no longer
    /// exists, would drop it from the form without a word.
    @Test func eachGroupPlacesOnlyItsOwnTexts() {
        let sections = CardForm.card.sections.compactMap { section -> (title: String?, keys: [String])? in
            guard case let .texts(title, texts) = section else { return nil }
            return (title, texts.map(\.key))
        }
        for group in CardForm.Group.allCases {
            let own = sections.first { $0.title == group.title }?.keys ?? []
            #expect(Array(own.prefix(group.placed.count)) == group.placed, "\(group)")
        }
    }

    /// A part names a column of its list, or a key of the JSON format's
    /// entry (the core lists have no ``CardList``): an entry written with
    /// each part filled and read back holds each.
    @Test func eachListsPartsAndKindAreKeysOfItsEntries() throws {
        for case let .list(list) in CardForm.card.sections where !list.lines {
            var entry = Dictionary(uniqueKeysWithValues: list.parts.map { ($0.key, "x\($0.key)@example.com") })
            if let kind = list.kind { entry[kind] = "work" }
            if list.key == "phones" { entry["value"] = "+49 30 1234567" }
            let json = try JSONSerialization.data(withJSONObject: ["firstName": "A", list.key: [entry]])
            let written = try #require(try JSONSerialization.jsonObject(with: Data(
                try ContactJSON.decode(json, source: "the test").draft.jsonText.utf8)) as? [String: Any])
            let read = try #require((written[list.key] as? [[String: Any]])?.first, "\(list.key)")
            for key in entry.keys { #expect(read[key] != nil, "\(list.key).\(key)") }
        }
    }

    @Test func theFormGoesOutAsJSONWithItsSections() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(CardForm.card)) as? [String: Any])
        let sections = try #require(object["sections"] as? [[String: Any]])
        #expect((sections.first?["title"] as? String) == "Name")
        #expect(sections.contains { ($0["list"] as? [String: Any])?["key"] as? String == "socialProfiles" })
    }
}
