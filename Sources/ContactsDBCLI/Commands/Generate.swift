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
                numbers; --photos gives that share of them a JPEG photo. The same options always write the same file.
                """)

        @Option(help: "How many contacts.") var contacts: Int
        @Option(help: "The random seed.") var seed: UInt64 = 1
        @Option(help: ArgumentHelp(
            "Instead, distinct people with this many duplicate sets planted (ids p<set>-<n>) and half as many decoy pairs that share only a name (d<pair>-<n>).",
            valueName: "sets"))
        var plantedDuplicates: Int?
        @OptionGroup var photos: SyntheticPhotoOptions

        func validate() throws {
            if contacts < 0 { throw ValidationError("Please give --contacts as zero or more.") }
            if let plantedDuplicates, plantedDuplicates < 0 || plantedDuplicates * 4 > contacts {
                throw ValidationError("Please give --planted-duplicates from 0 to a quarter of --contacts.")
            }
        }

        func run() throws {
            var array = JSONOutput.ArrayPrinter()
            let drafts = plantedDuplicates.map { AnySequence(PlantedDuplicates(count: contacts, sets: $0)) }
                ?? AnySequence(SyntheticContacts(count: contacts, seed: seed, photos: photos.value))
            for draft in drafts {
                array.append(draft.jsonText)
                try StandardOutput.check()
            }
            array.finish()
        }
    }
}
