import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Replace the fields given; a list given (phones, emails, messengers) replaces the whole list.",
            discussion: """
                An empty value clears a name (--company ""). With --json, the file holds one partial contact: \
                the keys present replace, and null clears.
                """)

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The contact's id.") var id: String
        @OptionGroup var input: ContactInputOptions
        @Option(help: ArgumentHelp(
            "Change nothing, and exit 75, if the contact changed after this revision (the one last read).",
            valueName: "revision"))
        var ifRevision: Int?

        func validate() throws {
            if input.jsonFile == nil && !input.hasFieldFlags {
                throw ValidationError("Please give at least one field to change, or --json FILE.")
            }
        }

        func run() throws {
            let patch = try input.jsonFile.map { file in
                try ContactJSON.decode(try InputFile.read(file), source: InputFile.displayName(file))
            }
            let store = try database.openStore()
            let contact = try store.update(id: id, ifRevision: ifRevision) { draft in
                if let patch { patch.apply(to: &draft) } else { input.apply(to: &draft) }
            }
            print(contact.id)
        }
    }
}
