import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct EmailAddresses: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "email",
            abstract: "Print the email addresses of the contacts that WORDS find, for a mail client to complete.",
            discussion: """
                Contacts are found as `query --text` finds them; each of their addresses is one line, \
                ADDRESS<TAB>NAME<TAB>LABEL. mutt and neomutt: set query_command = "contactsdb email %s". \
                aerc: address-book-cmd = contactsdb email --format aerc "%s". When nothing matches, the exit \
                code is 1.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            /// A status line first, as mutt's `query_command` expects.
            case mutt
            /// The addresses alone.
            case aerc
        }

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Words that must each begin a word of the contact (names, company, emails, …).")
        var words: [String]
        @Option(help: "mutt (a status line, then the addresses) or aerc (the addresses alone).")
        var format: Format = .mutt

        private var text: String { words.joined(separator: " ") }

        func validate() throws {
            if !text.contains(where: { $0.isLetter || $0.isNumber }) {
                throw ValidationError("Please give at least one word of letters or digits (got \"\(text)\").")
            }
        }

        func run() throws {
            let addresses = try database.openStore().emailAddresses(matching: ContactQuery().filter(.text(text)))
            // One write of all the lines: a bare prefix finds thousands.
            var output = ""
            if format == .mutt {
                output += addresses.isEmpty ? "No addresses match \"\(Self.field(text))\".\n"
                    : "\(addresses.count) address\(addresses.count == 1 ? "" : "es")\n"
            }
            for line in addresses {
                output += Self.field(line.address) + "\t" + Self.field(line.name) + "\t" + Self.field(line.label) + "\n"
            }
            print(output, terminator: "")
            if addresses.isEmpty { throw ExitCode(ExitStatus.notFound) }
        }

        /// A value as one field of a line: the tab and line breaks that
        /// would split it (an imported name may hold them) become spaces.
        /// Every such character begins with a control byte or with 0xC2
        /// (U+0085) or 0xE2 (U+2028, U+2029), so most values are returned
        /// without walking their characters.
        private static func field(_ value: String) -> String {
            guard value.utf8.contains(where: { $0 < 0x20 || $0 == 0xC2 || $0 == 0xE2 }) else { return value }
            return String(value.map { $0 == "\t" || $0.isNewline ? " " : $0 })
        }
    }
}
