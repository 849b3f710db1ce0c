import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Photo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "photo",
            abstract: "Set, get or remove a contact's photo.",
            discussion: """
                A photo is JPEG, PNG, GIF, HEIC or WebP, at most 10 MB and 50 megapixels; the engine keeps the \
                bytes as given and makes a square thumbnail of at most 256 pixels a side.
                """,
            subcommands: [Set.self, Get.self, Remove.self])

        struct Set: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "set", abstract: "Give a contact a photo, replacing any it had.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The contact's id.") var id: String
            @Argument(help: "The image file, or - for stdin.") var file: String

            func run() throws {
                try InputFile.checkReadable(file)
                // One byte past the limit is enough for the photo to be refused.
                let data = try InputFile.read(file, limit: PhotoImage.maximumBytes)
                let contact = try database.openStore().setPhoto(id: id, data: data)
                print("Set the photo of \(contact.displayName) (\(contact.photo?.mediaType ?? ""), \(data.count) bytes).")
            }
        }

        struct Get: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "get", abstract: "Write a contact's photo, as it was given, or its thumbnail.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The contact's id.") var id: String
            @Flag(help: "The thumbnail (JPEG, or WebP when transparent) instead of the photo.") var thumbnail = false
            @Option(help: "Write to this file instead of stdout.") var output: String?

            func run() throws {
                let store = try database.openStore()
                let bytes = thumbnail ? try store.thumbnail(id: id)?.data : try store.photo(id: id)?.data
                guard let bytes else { throw ContactsDBError.photoNotFound(id: id, thumbnail: thumbnail) }
                guard let output else {
                    StandardOutput.write(bytes)
                    return
                }
                let file = try AtomicFile(path: output)
                try file.write(bytes)
                try file.commit(replacingExisting: true)
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a contact's photo.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The contact's id.") var id: String

            func run() throws {
                let contact = try database.openStore().removePhoto(id: id)
                print("Removed the photo of \(contact.displayName).")
            }
        }
    }
}
