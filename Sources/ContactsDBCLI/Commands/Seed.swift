import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Seed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "seed",
            abstract: "Import a seed file once per database (default: the bundled seed).",
            discussion: """
                A seed is known by its content checksum: running `seed` again with the same file says when \
                it was imported and changes nothing. The bundled seed can be seeded here even after \
                `init --no-seed` declined it.
                """)

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "A JSON file in the seed format; - for stdin.") var file: String?
        @OptionGroup var book: BookOption<OneBook>

        func run() throws {
            let source = file.map(InputFile.displayName) ?? BundledSeed.source
            if let file { try InputFile.checkReadable(file) }
            let store = try database.openStore(seedsOnFirstOpen: false)
            let progress = Terminal.ProgressBar(label: "Seeding")
            let outcome: SeedOutcome
            switch file {
            case nil: outcome = try store.seed(BundledSeed.data, source: source, intoBook: book.name, progress: progress.update)
            case "-": outcome = try store.seed(try InputFile.read("-"), source: source, intoBook: book.name, progress: progress.update)
            case let path?: outcome = try store.seed(fromFileAt: path, intoBook: book.name, progress: progress.update)
            }
            progress.finish()
            switch outcome {
            case .imported(let seed):
                print("Imported the \(source) seed: \(seed.contactCount) contacts.")
            case .alreadyImported(let seed):
                print("The \(source) seed was already imported on \(Timestamp.string(from: seed.importedAt)) "
                      + "(\(seed.contactCount) contacts, as \"\(seed.source)\"); nothing was changed.")
            }
        }
    }
}
