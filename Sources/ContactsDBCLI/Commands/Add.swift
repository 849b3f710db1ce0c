import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add one contact (or every contact of a JSON file) and print the new ids.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var input: ContactInputOptions
        @OptionGroup var book: BookOption<OneBook>

        func validate() throws {
            if input.jsonFile == nil && !input.hasFieldFlags {
                throw ValidationError("Please give the contact: --first-name, --last-name or --company, or --json FILE.")
            }
        }

        func run() throws {
            let drafts: [ContactDraft]
            if let file = input.jsonFile {
                drafts = try ContactJSON.drafts(in: try InputFile.read(file), source: InputFile.displayName(file))
            } else {
                var draft = ContactDraft()
                input.apply(to: &draft)
                drafts = [draft]
            }
            let store = try database.openStore()
            for contact in try store.add(drafts, toBook: book.name) { print(contact.id) }
        }
    }
}
