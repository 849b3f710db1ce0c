import ContactsDBSynthetic
import Foundation
import Testing
@testable import ContactsDB

@Suite struct DuplicatesTests {
    /// Every planted set, with the confidence the rules give it, and
    /// nothing else: not the decoys who share only a name.
    @Test func findsThePlantedSetsAndNothingElse() throws {
        let store = try ContactStore.makeEmpty()
        let generated = PlantedDuplicates(count: 700, sets: 60)
        try store.add(Array(generated))
        let found = try store.duplicates()
        #expect(Set(found.map { Set($0.ids) }) == Set(generated.planted.map { Set($0.ids) }))
        let confidence = Dictionary(uniqueKeysWithValues: generated.planted.map { (Set($0.ids), $0.confidence) })
        for set in found { #expect(set.confidence == confidence[Set(set.ids)], "\(set)") }
        let threeWays = try #require(found.first { $0.ids.contains("p0-0") })
        #expect(threeWays.reasons == ["phone +79121000000"])
    }

    /// The engine's sets equal those worked out pair by pair, by the rules
    /// (docs/cli.md, "Duplicates and merging"), on data whose names, companies,
    /// cities and birthdays repeat by chance; a name alone never joins two
    /// contacts.
    @Test func matchesAPairwiseReference() throws {
        let store = try ContactStore.makeEmpty()
        let people = Array(SyntheticContacts(count: 600, seed: 7))
        // Second copies of some: one without a name, one under another
        // name, one with only the name and birthday, one with an email in
        // capitals; chains form where copies meet.
        var copies: [ContactDraft] = []
        for (index, person) in people.enumerated() where index % 5 == 0 {
            var copy = ContactDraft(id: "x\(index)", firstName: person.firstName, lastName: person.lastName, company: person.company)
            switch index % 4 {
            case 0: (copy.firstName, copy.lastName, copy.company, copy.phones) = (nil, nil, "Firm", person.phones)
            case 1: (copy.firstName, copy.phones) = ("Zed", person.phones)
            case 2: copy.birthday = person.birthday ?? "1970-01-01"
            default: copy.emails = person.emails.map { Email(value: $0.value.uppercased()) }
            }
            copies.append(copy)
        }
        try store.add(people + copies)
        let contacts = try store.contacts(matching: ContactQuery())
        let reference = Self.reference(contacts)
        let found = try store.duplicates()
        #expect(found.contains { $0.confidence == .certain } && found.contains { $0.confidence == .likely })
        #expect(found.count > 50, "the data should hold sets of every kind")
        #expect(Set(found.map { Set($0.ids) }) == Set(reference.map(\.ids)))
        let confidence = Dictionary(uniqueKeysWithValues: reference.map { ($0.ids, $0.certain) })
        for set in found {
            #expect((set.confidence == .certain) == confidence[Set(set.ids)], "\(set)")
        }
        // Sets in the default order of their first contact, ids in that order.
        let rank = Dictionary(uniqueKeysWithValues: contacts.enumerated().map { ($1.id, $0) })
        for set in found { #expect(set.ids == set.ids.sorted { rank[$0]! < rank[$1]! }) }
        #expect(found.map { rank[$0.ids[0]]! } == found.map { rank[$0.ids[0]]! }.sorted())
    }

    @Test func aMergeUnionsAndKeepsWhatDiffers() throws {
        let store = try ContactStore.makeEmpty()
        try store.add([
            ContactDraft(id: "a", firstName: "Anna", lastName: "Petrova", company: "Sprocket",
                         phones: [Phone(value: "+7 912 345-67-89")], groups: ["Work"]),
            ContactDraft(id: "b", firstName: "anna", lastName: "petrova", company: "Acme",
                         phones: [Phone(value: "8 912 345 67 89"), Phone(value: "+1 415 555 0199")],
                         emails: [Email(value: "Anna@Example.com")], isFavorite: true, groups: ["family", "work"]),
            ContactDraft(id: "c", firstName: "Anna", emails: [Email(value: "anna@example.com"), Email(value: "a@b.example")]),
        ])
        var birthday = ContactDraft(id: "d", firstName: "Anna")
        birthday.birthday = "1990-04-12"
        try store.add(birthday)
        let result = try store.merge(["a", "b", "c", "d"])
        let merged = result.contact
        #expect(merged.phones.map(\.value) == ["+7 912 345-67-89", "+1 415 555 0199"])
        #expect(merged.emails.map(\.value) == ["Anna@Example.com", "a@b.example"])
        #expect(merged.company == "Sprocket" && merged.birthday == "1990-04-12" && merged.isFavorite)
        #expect(Set(merged.groups.map { $0.lowercased() }) == ["work", "family"])
        #expect(result.keptApart == [MergeResult.KeptApart(id: "b", field: "company", value: "Acme")])
        #expect(try store.contacts(ids: ["b", "c", "d"]).isEmpty)
        #expect(try store.merges().map(\.merged) == [["b", "c", "d"]])
    }

    /// A card without a name shares a phone with Anna and an email with
    /// Boris: one set, never certain, so merging every certain set leaves
    /// two people apart.
    @Test func aContactWithoutANameNeverMakesTwoNamesOnePerson() throws {
        let store = try ContactStore.makeEmpty()
        let cards = """
            BEGIN:VCARD\r\nVERSION:3.0\r\nUID:x\r\nTEL:+79123456789\r\nEMAIL:boris@example.com\r\nEND:VCARD\r\n
            """
        try store.add([ContactDraft(id: "anna", firstName: "Anna", phones: [Phone(value: "+7 912 345-67-89")]),
                       ContactDraft(id: "boris", firstName: "Boris", emails: [Email(value: "Boris@example.com")])])
        try store.importContacts(Data(cards.utf8), source: "x.vcf")
        #expect(try store.duplicates().map(\.confidence) == [.likely])
        #expect(try store.mergeAllCertain().isEmpty)
        // A merge of the card without a name is taken back, whatever rules
        // typed input has for names.
        let merge = try store.merge(["anna", "x"])
        #expect(try store.contact(id: "anna")?.emails.map(\.value) == ["boris@example.com"])
        #expect(try store.unmerge(try #require(merge.mergeID)).survivorRestored)
        #expect(try store.contact(id: "x")?.firstName == nil && store.contact(id: "anna")?.emails == [])
    }

    /// The survivor's name is its own, whole: another's middle or formatted
    /// name is kept apart, not mixed in.
    @Test func aNameIsTakenWholeOrNotAtAll() throws {
        let store = try ContactStore.makeEmpty()
        var other = ContactDraft(id: "b", firstName: "Anya", lastName: "Petrova")
        (other.middleName, other.formattedName) = ("Sergeevna", "Anya P. (work)")
        try store.add([ContactDraft(id: "a", firstName: "Anna", lastName: "Petrova"), other,
                       ContactDraft(id: "c", company: "Acme")])
        let merged = try store.merge(["a", "b"]).contact
        #expect(merged.firstName == "Anna" && merged.middleName == nil && merged.formattedName == nil)
        let kept = try store.merges().count
        #expect(kept == 1)
        let nameless = try store.merge(["c", "a"]).contact
        #expect(nameless.firstName == "Anna" && nameless.lastName == "Petrova" && nameless.company == "Acme")
    }

    /// Unmerge puts a contact back in its groups by their uid: a group
    /// renamed since is still its group, one deleted since is not made again.
    @Test func unmergeFindsGroupsByTheirUID() throws {
        let store = try ContactStore.makeEmpty()
        try store.add([ContactDraft(id: "a", firstName: "Anna", groups: ["Work", "Choir"]),
                       ContactDraft(id: "b", firstName: "Anna")])
        let merge = try store.merge(["b", "a"])
        try store.renameGroup("Work", to: "Office")
        try store.deleteGroup(named: "Choir")
        try store.unmerge(try #require(merge.mergeID))
        #expect(try store.contact(id: "a")?.groups == ["Office"])
        #expect(try store.groups().map(\.name) == ["Office"])
    }

    /// Another card's Apple item groups get numbers of their own, so that
    /// its X-ABLabel never labels the survivor's property.
    @Test func anotherCardsItemGroupsAreRenumbered() {
        var survivor = ContactDraft(id: "a", firstName: "Anna"), other = ContactDraft(id: "b", firstName: "Anna")
        survivor.extra = ["item1.X-CUSTOM:a", "item1.X-ABLabel:first", "item2.X-CUSTOM:c", "item2.X-ABLabel:third"]
        other.extra = ["item1.X-CUSTOM:b", "item1.X-ABLabel:second", "item5.X-OTHER:d", "X-PLAIN:e"]
        #expect(ContactMerging(survivor: survivor, others: [other]).draft.extra == survivor.extra + [
            "item3.X-CUSTOM:b", "item3.X-ABLabel:second", "item5.X-OTHER:d", "X-PLAIN:e",
        ])
    }

    // MARK: - The reference

    /// The rules (docs/cli.md, "Duplicates and merging"), pair by pair over
    /// every two contacts.
    static func reference(_ contacts: [Contact]) -> [(ids: Set<String>, certain: Bool)] {
        func name(_ contact: Contact) -> [String]? {
            let parts = [contact.firstName, contact.lastName].compactMap { $0 }.map(Collation.fold)
            return parts.isEmpty ? nil : [contact.firstName.map(Collation.fold) ?? "", contact.lastName.map(Collation.fold) ?? ""].sorted()
        }
        func identifiers(_ contact: Contact) -> Set<String> {
            Set(contact.phones.compactMap(\.e164).filter { $0.hasPrefix("+") }.map { "tel " + $0 }
                + contact.emails.map { "email " + $0.value.lowercased() }
                + contact.messengers.map { "im " + $0.service.lowercased() + " " + $0.handle.lowercased() })
        }
        func facts(_ contact: Contact) -> Set<String> {
            Set([contact.birthday.map { "birthday " + $0 }, contact.company.map { "company " + Collation.fold($0) }].compactMap { $0 }
                + contact.addresses.map { Collation.fold($0.city) }.filter { !$0.isEmpty }.map { "city " + $0 })
        }
        var all = Array(contacts.indices), certain = Array(contacts.indices)
        func root(_ parents: inout [Int], _ i: Int) -> Int {
            var i = i
            while parents[i] != i { i = parents[i] }
            return i
        }
        let names = contacts.map(name), ids = contacts.map(identifiers), known = contacts.map(facts)
        for i in contacts.indices {
            for j in contacts.indices where j > i {
                let (nameA, nameB) = (names[i], names[j])
                let sharesIdentifier = !ids[i].isDisjoint(with: ids[j])
                let sameName = nameA != nil && nameA == nameB
                let isCertain = sharesIdentifier && (nameA == nil || nameB == nil || nameA == nameB)
                let isLikely = sharesIdentifier || (sameName && !known[i].isDisjoint(with: known[j]))
                if isLikely { all[root(&all, j)] = root(&all, i) }
                if isCertain { certain[root(&certain, j)] = root(&certain, i) }
            }
        }
        // Certain: certain pairs alone connect the set, and it holds one
        // name at most (a contact without one never joins two names).
        var sets: [Int: (ids: Set<String>, roots: Set<Int>, names: Set<[String]>)] = [:]
        for i in contacts.indices {
            sets[root(&all, i), default: ([], [], [])].ids.insert(contacts[i].id)
            sets[root(&all, i), default: ([], [], [])].roots.insert(root(&certain, i))
            if let name = names[i] { sets[root(&all, i), default: ([], [], [])].names.insert(name) }
        }
        return sets.values.filter { $0.ids.count > 1 }.map { ($0.ids, $0.roots.count == 1 && $0.names.count <= 1) }
    }
}
