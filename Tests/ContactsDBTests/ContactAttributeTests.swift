import Foundation
import Testing
@testable import ContactsDB

/// ``ContactAttribute`` is the one list of what `--has` can require; what
/// cannot follow it by construction is checked against it here.
@Suite struct ContactAttributeTests {
    /// The bits the newest shipped `personAttributesOf` ORs into a
    /// person's union (`max(attributes & N)`, one per bit).
    static func bitsOfThePersonKeysSQL() throws -> Set<Int> {
        let migration = try #require(SchemaMigration.bundled.last { $0.sql.contains("CREATE VIEW personAttributesOf") })
        let start = try #require(migration.sql.range(of: "CREATE VIEW personAttributesOf"))
        let view = migration.sql[start.lowerBound...].prefix { $0 != ";" }
        return Set(view.matches(of: /attributes\s*&\s*(\d+)/).compactMap { Int($0.output.1) })
    }

    /// A bit the person-keys SQL leaves out would make every linked
    /// contact lose that attribute in `query --unified --has`.
    @Test func thePersonKeysSQLUnitesEveryBit() throws {
        let listed = try Self.bitsOfThePersonKeysSQL()
        #expect(listed.contains(ContactAttributes.cardLists.rawValue))
        for attribute in ContactAttribute.allCases {
            #expect(listed.contains(attribute.bit.rawValue),
                    "\(attribute) (bit \(attribute.bit.rawValue)) needs a migration rewriting personAttributesOf")
        }
    }

    @Test func eachAttributeHasABitOfItsOwn() {
        let bits = ContactAttribute.allCases.map(\.bit.rawValue) + [ContactAttributes.cardLists.rawValue]
        #expect(Set(bits).count == bits.count)
        #expect(bits.allSatisfy { $0 > 0 && $0 & ($0 - 1) == 0 }, "\(bits)")
    }

    /// Every service typed input accepts can be asked for with `--has`.
    @Test func eachMessengerServiceIsAnAttribute() {
        let services = ContactAttribute.allCases.compactMap { attribute -> MessengerService? in
            if case .messenger(let service) = attribute.holder { service } else { nil }
        }
        #expect(services == MessengerService.allCases)
        #expect(ContactAttributes.messengers == ContactAttributes(services.map { ContactAttribute(rawValue: $0.rawValue)!.bit }))
    }

    /// A draft holding one thing gets that attribute's bit and no other.
    @Test func aDraftHasTheBitOfWhatItHolds() throws {
        for attribute in ContactAttribute.allCases {
            var draft = ContactDraft(firstName: "Ann")
            switch attribute.holder {
            case .phones: draft.phones = [Phone(value: "+7 912 345-67-89")]
            case .emails: draft.emails = [Email(value: "ann@example.org")]
            case .addresses: draft.addresses = [Address(city: "Omsk")]
            case .messenger(let service): draft.messengers = [Messenger(service: service.rawValue, handle: "@ann")]
            case .photo: draft.photo = ContactPhoto(mediaType: "image/jpeg", data: Data([0xFF, 0xD8]))
            case .birthday: draft.birthday = "--05-17"
            }
            #expect(ContactAttributes(draft) == attribute.bit, "\(attribute)")
        }
    }
}
