import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add every contact of a JSON file, all or nothing.",
            discussion: "Unlike `seed`, importing is not tracked: importing a file twice adds its contacts twice.")

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "A JSON file in the seed format; - for stdin.") var file: String

        func run() throws {
            try InputFile.checkReadable(file)
            let store = try database.openStore()
            let progress = Terminal.ProgressBar(label: "Importing")
            let count = file == "-"
                ? try store.importContacts(try InputFile.read(file), source: "stdin", progress: progress.update)
                : try store.importContacts(fromFileAt: file, progress: progress.update)
            progress.finish()
            print("Imported \(count) contacts from \(InputFile.displayName(file)).")
        }
    }
}
