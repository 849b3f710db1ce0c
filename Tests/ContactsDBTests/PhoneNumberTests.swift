import Foundation
import Testing
@testable import ContactsDB

@Suite struct PhoneNumberTests {
    struct Fixture: Decodable {
        var input: String
        var e164: String?
        var display: String
    }

    /// Expected forms generated from libphonenumber by
    /// Fixtures/make_phone_fixtures.py.
    static let fixtures: [Fixture] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/phones.json")
        return try! JSONDecoder().decode([Fixture].self, from: Data(contentsOf: url))
    }()

    @Test(arguments: fixtures.indices)
    func normalizesAndDisplaysAsLibphonenumberDoes(_ index: Int) {
        let fixture = Self.fixtures[index]
        let number = PhoneNumber(fixture.input)
        #expect(number.e164 == fixture.e164, "\(fixture.input)")
        #expect(number.normalized == (fixture.e164 ?? fixture.input.filter(\.isNumber)), "\(fixture.input)")
        #expect(number.display == fixture.display, "\(fixture.input)")
    }

    @Test func fixturesCoverEveryRule() {
        let e164s = Self.fixtures.compactMap(\.e164)
        #expect(Self.fixtures.count >= 40)
        #expect(e164s.filter { $0.hasPrefix("+7") }.count >= 5)
        #expect(e164s.filter { $0.hasPrefix("+82") }.count >= 20)
        #expect(Self.fixtures.filter { $0.e164 == nil }.count >= 5)
    }
}
