import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct PhoneLookup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "phone",
            abstract: "Show what libphonenumber makes of a number, read in this database's default regions.",
            discussion: """
                A number without "+" is read in the default regions in order (`contactsdb settings \
                regions`) and takes the first where it is valid. Exits 0 whether the number is valid or not.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The number, as written.") var number: String
        @Option(help: "Output format.") var format: Format = .text

        func run() throws {
            let described = try database.openStore().describePhone(number)
            switch format {
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(Described(described)), as: UTF8.self))
            case .text:
                let fields = Described(described)
                print("""
                    e164: \(fields.e164 ?? "")
                    national: \(fields.national ?? "")
                    international: \(fields.international ?? "")
                    region: \(fields.region ?? "")
                    type: \(fields.type)
                    valid: \(fields.valid)
                    """)
            }
        }

        /// The keys `contactsdb phone` gives (docs/model.md, "Order, sections and
        /// phone numbers"), null where libphonenumber cannot read the number.
        struct Described: Encodable {
            var e164, national, international, region: String?
            var type: String
            var valid: Bool

            init(_ described: PhoneNumberDescription?) {
                e164 = described?.e164
                national = described?.national
                international = described?.international
                region = described?.region
                type = described?.type ?? "UNKNOWN"
                valid = described?.valid ?? false
            }

            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(e164, forKey: .e164)
                try container.encode(national, forKey: .national)
                try container.encode(international, forKey: .international)
                try container.encode(region, forKey: .region)
                try container.encode(type, forKey: .type)
                try container.encode(valid, forKey: .valid)
            }

            enum CodingKeys: String, CodingKey { case e164, national, international, region, type, valid }
        }
    }
}
