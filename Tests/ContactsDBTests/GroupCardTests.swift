import Foundation
import Testing
@testable import ContactsDB

/// Group cards of both forms come in as groups and go out again
/// (docs/cli.md, "Favorites and groups").
@Suite struct GroupCardTests {
    static func card(_ lines: [String]) -> String {
        (["BEGIN:VCARD"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    static func person(_ id: String, _ first: String, _ last: String, version: String = "3.0", categories: String? = nil) -> String {
        card(["VERSION:\(version)", "UID:\(id)", "N:\(last);\(first);;;", "FN:\(first) \(last)"]
            + (categories.map { ["CATEGORIES:\($0)"] } ?? []))
    }

    /// Apple's 3.0 form.
    static func appleGroup(_ uid: String, _ name: String, members: [String]) -> String {
        card(["VERSION:3.0", "PRODID:-//Apple Inc.//macOS 14.0//EN", "N:\(name);;;;", "FN:\(name)",
              "X-ADDRESSBOOKSERVER-KIND:group"] + members.map { "X-ADDRESSBOOKSERVER-MEMBER:\($0)" } + ["UID:\(uid)"])
    }

    /// RFC 6350's form.
    static func rfcGroup(_ uid: String, _ name: String, members: [String], extra: [String] = []) -> String {
        card(["VERSION:4.0", "UID:\(uid)", "KIND:group", "FN:\(name)"] + members.map { "MEMBER:\($0)" } + extra)
    }

    func store(_ text: String) throws -> (ContactStore, ImportReport) {
        let store = try ContactStore.makeEmpty()
        return (store, try store.importContacts(from: [.data(Data(text.utf8), source: "cards.vcf")]))
    }

    /// Each group: its name, uid and member ids, sorted.
    func groups(_ store: ContactStore) throws -> [String: (uid: String, members: [String])] {
        var result: [String: (uid: String, members: [String])] = [:]
        for group in try store.groups() {
            result[group.name] = (group.uid, try store.ids(matching: ContactQuery().filter(.group(group.name))).sorted())
        }
        return result
    }

    func export(_ store: ContactStore, _ version: VCardVersion, groups convention: GroupConvention) throws -> String {
        var text = ""
        try store.forEachContact { text += $0.vCard(version: version, categories: convention == .categories) }
        if convention == .cards { text += try store.groupCards(version: version).joined() }
        return text
    }

    @Test func groupCardsOfBothFormsBecomeGroupsAndLaterMembersJoin() throws {
        let (store, report) = try store(
            Self.appleGroup("fam-1", "Family", members: ["urn:uuid:anna", "URN:UUID:boris", "urn:uuid:later"])
            + Self.person("anna", "Anna", "Petrova")
            + Self.rfcGroup("work-2", "Work", members: ["urn:uuid:anna", "mailto:boss@example.com"], extra: ["NOTE:the office"])
            + Self.person("boris", "Boris", "Ivanov"))
        #expect(report.imported == 2 && report.groups == 2)
        #expect(report.extraProperties.isEmpty, "the kind and members were read, not kept: \(report.extraProperties)")
        #expect(try store.ids(matching: ContactQuery()).sorted() == ["anna", "boris"])
        var groups = try groups(store)
        #expect(groups["Family"]?.uid == "fam-1" && groups["Family"]?.members == ["anna", "boris"])
        #expect(groups["Work"]?.uid == "work-2" && groups["Work"]?.members == ["anna"])
        #expect(try store.contact(id: "anna")?.extra == [])

        try store.importContacts(Data(Self.person("later", "Lena", "Later").utf8), source: "later.vcf")
        groups = try self.groups(store)
        #expect(groups["Family"]?.members == ["anna", "boris", "later"])
        let work = try #require(try store.groupCards(version: .v4).first { $0.contains("FN:Work") })
        #expect(work.contains("MEMBER:mailto:boss@example.com") && work.contains("NOTE:the office") && work.contains("UID:work-2"))
    }

    @Test func aGroupHeldBothWaysIsOneGroup() throws {
        let (store, _) = try store(
            Self.person("anna", "Anna", "Petrova", categories: "family")
            + Self.appleGroup("fam-1", "Family", members: ["urn:uuid:boris"])
            + Self.person("boris", "Boris", "Ivanov", categories: "Friends")
            + Self.rfcGroup("fam-1", "FAMILY", members: ["urn:uuid:vera"])
            + Self.person("vera", "Vera", "Sokolova", version: "4.0"))
        let groups = try groups(store)
        #expect(groups.count == 2)
        let family = try #require(groups.first { $0.key.lowercased() == "family" }?.value)
        #expect(family.uid == "fam-1" && family.members == ["anna", "boris", "vera"])
    }

    /// Two clients' cards of one name, each with a UID of its own, stay two
    /// groups on import as on sync, and again after a round trip.
    @Test(arguments: VCardVersion.allCases)
    func twoCardsOfOneNameWithUIDsOfTheirOwnStayTwoGroups(_ version: VCardVersion) throws {
        let (store, _) = try store(
            Self.person("anna", "Anna", "Petrova") + Self.person("boris", "Boris", "Ivanov")
            + Self.appleGroup("friends-phone", "Friends", members: ["urn:uuid:anna"])
            + Self.rfcGroup("friends-laptop", "friends", members: ["urn:uuid:boris"]))
        let expected = ["Friends": "friends-phone", "friends (2)": "friends-laptop"]
        #expect(try groups(store).mapValues(\.uid) == expected)
        #expect(try groups(store).mapValues(\.members) == ["Friends": ["anna"], "friends (2)": ["boris"]])

        let (copy, _) = try self.store(try export(store, version, groups: .cards))
        #expect(try groups(copy).mapValues(\.uid) == expected)
    }

    /// 500 contacts in 20 groups: half as Apple's cards, half as RFC 6350's,
    /// five by CATEGORIES only, two empty, and members that never arrive.
    @Test func fiveHundredContactsInTwentyGroupsComeInAndGoOutTheSame() throws {
        var text = ""
        var expected: [String: [String]] = [:]
        for group in 0..<20 {
            let name = "Group \(group)"
            let members = group < 2 ? [] : (0..<500).filter { $0 % 20 == group }.map { "c\($0)" }
            expected[name] = members.sorted()
            guard !(10..<15).contains(group) else { continue }
            let uris = members.map { "urn:uuid:" + $0 } + (group % 3 == 0 ? ["urn:uuid:missing-\(group)"] : [])
            text += group.isMultiple(of: 2) ? Self.appleGroup("g\(group)", name, members: uris)
                : Self.rfcGroup("g\(group)", name, members: uris)
        }
        for index in 0..<500 {
            let categories = (10..<15).contains(index % 20) ? "Group \(index % 20)" : nil
            text += Self.person("c\(index)", "Name\(index)", "Family\(index % 37)", categories: categories)
        }
        let (store, report) = try store(text)
        #expect(report.imported == 500 && report.groups == 15)
        #expect(try store.count(matching: ContactQuery().filter(.namePrefix("Group"))) == 0)
        let groups = try groups(store)
        #expect(groups.mapValues(\.members) == expected)

        for version in VCardVersion.allCases {
            let (again, _) = try self.store(try export(store, version, groups: .cards))
            let regrouped = try self.groups(again)
            #expect(regrouped.mapValues(\.members) == expected, "\(version)")
            #expect(regrouped.mapValues(\.uid) == groups.mapValues(\.uid), "\(version)")
            let cards = try again.groupCards(version: .v4).joined()
            #expect(cards.contains("MEMBER:urn:uuid:missing-3"), "a member that never came is kept")
        }
        let (byCategories, _) = try self.store(try export(store, .v4, groups: .categories))
        #expect(try self.groups(byCategories).mapValues(\.members) == expected.filter { !$0.value.isEmpty },
                "as categories, an empty group is gone")
    }

    /// A group card's name is held as a group name is: one too long is
    /// refused as an invalid contact would be; one without a name is named
    /// by its UID, so that two such cards stay two groups.
    @Test func groupCardNamesAreHeldAsGroupNames() throws {
        let long = Self.rfcGroup("g-long", String(repeating: "x", count: 150), members: [])
        let store = try ContactStore.makeEmpty()
        let error = captureError { _ = try store.importContacts(from: [.data(Data(long.utf8), source: "long.vcf")]) }
        #expect(error.map { "\($0)" }?.contains("FN") == true, "\(String(describing: error))")
        #expect(try store.groups().isEmpty)
        let nameless = Self.card(["VERSION:4.0", "UID:first-uid", "KIND:group"])
            + Self.card(["VERSION:4.0", "UID:second-uid", "KIND:group"])
        let (named, _) = try self.store(nameless)
        #expect(try named.groups().map(\.name).sorted() == ["first-uid", "second-uid"])
    }
}
