import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add every contact of a JSON or vCard file (or a directory of .vcf files), all or nothing.",
            discussion: """
                The format is read from the content: vCard 2.1, 3.0 and 4.0 (one or many cards a file), or \
                the JSON format. Unlike `seed`, importing is not tracked: importing a file twice adds its \
                contacts twice (and fails on ids given twice).
                """)

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "A JSON or vCard file, a directory of .vcf files, or - for stdin.") var file: String
        @Flag(help: "Skip vCards that cannot be read, and report them, instead of importing nothing.")
        var skipInvalid = false

        func run() throws {
            let name = InputFile.displayName(file)
            if let files = try vCardDirectory() {
                return try importVCards(files, into: try database.openStore())
            }
            try InputFile.checkReadable(file)
            let data = try InputFile.read(file)  // mapped, not read whole
            if ImportFormat(of: data) == .vCard {
                return try importVCards([(name, data)], into: try database.openStore())
            }
            let store = try database.openStore()
            let progress = Terminal.ProgressBar(label: "Importing")
            let count = file == "-"
                ? try store.importContacts(data, source: name, progress: progress.update)
                : try store.importContacts(fromFileAt: file, progress: progress.update)
            progress.finish()
            print("Imported \(count) contacts from \(name).")
        }

        /// The .vcf files of `file` when it is a directory, in name order.
        private func vCardDirectory() throws -> [(String, Data)]? {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
            let names = try FileManager.default.contentsOfDirectory(atPath: file)
                .filter { $0.lowercased().hasSuffix(".vcf") }.sorted()
            guard !names.isEmpty else {
                throw ContactsDBError.unreadableFile(path: file, reason: "the directory holds no .vcf files")
            }
            return try names.map { ($0, try InputFile.read((file as NSString).appendingPathComponent($0))) }
        }

        private func importVCards(_ files: [(String, Data)], into store: ContactStore) throws {
            let report = try store.importVCards(files.map { (source: $0.0, data: $0.1) }, skippingInvalid: skipInvalid)
            for skipped in report.skippedCards { Terminal.printNotice("Skipped \(skipped)") }
            if !report.unknownMessengers.isEmpty {
                Terminal.printNotice("Warning: messengers of unknown services were not imported: \(Self.counted(report.unknownMessengers)).")
            }
            if !report.unheldProperties.isEmpty {
                Terminal.printNotice("Not imported, as contacts here do not hold them: \(Self.counted(report.unheldProperties)).")
            }
            print("Imported \(report.imported) contacts from \(files.count == 1 ? files[0].0 : "\(files.count) files")"
                  + (report.skippedCards.isEmpty ? "." : "; skipped \(report.skippedCards.count) cards."))
        }

        private static func counted(_ counts: [String: Int]) -> String {
            counts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        }
    }
}
