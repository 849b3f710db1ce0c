import ArgumentParser
import ContactsDB
import ContactsDBSynthetic

extension ContactsDBCommand {
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Write a deterministic synthetic data set of contacts in the JSON import format.",
            discussion: """
                Names are about 60% Latin, 25% Cyrillic and 15% Hangul; phones are Russian, Korean and US \
                numbers. The same --contacts and --seed always write the same file.
                """)

        @Option(help: "How many contacts.") var contacts: Int
        @Option(help: "The random seed.") var seed: UInt64 = 1

        func validate() throws {
            if contacts < 0 { throw ValidationError("Please give --contacts as zero or more.") }
        }

        func run() throws {
            var array = JSONOutput.ArrayPrinter()
            for draft in SyntheticContacts(count: contacts, seed: seed) {
                array.append(draft.jsonText)
                try StandardOutput.check()
            }
            array.finish()
        }
    }
}
