import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add every contact of a JSON, vCard or CSV file (or a directory of .vcf files), all or nothing.",
            discussion: """
                The format is read from the content: vCard 2.1, 3.0 and 4.0 (one or many cards a file), the \
                JSON format, or CSV (this engine's export, Google Contacts' or Outlook's, told by the header \
                row; comma, semicolon or tab separated; UTF-8, else Windows-1252). Unlike `seed`, importing is not tracked: a contact whose id is here already \
                (a vCard's UID, a JSON contact's id) fails the import, unless --existing says to update or \
                skip such contacts.
                """)

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "A JSON, vCard or CSV file, a directory of .vcf files, or - for stdin.") var file: String
        @Flag(help: "Skip records that cannot be read or break a rule (a vCard card, a JSON contact, a CSV row), and report them, instead of importing nothing.")
        var skipInvalid = false
        @Option(help: "What becomes of a contact whose id is here already: fail the import, update it to the card as read (a contact equal to its card is not written), or skip it.")
        var existing = ExistingContacts.fail
        @OptionGroup var book: BookOption<OneBook>
        @OptionGroup var threads: WorkerOptions

        func run() throws {
            guard file == "-" else { return try run(inputs: try vCardDirectory() ?? [try Self.input(file)]) }
            try InputFile.spoolingStandardInput { path in
                try run(inputs: [.file(path: path, source: InputFile.displayName(file))])
            }
        }

        private func run(inputs: [ImportInput]) throws {
            let store = try database.openStore(threads: threads)
            let progress = Terminal.ProgressBar(label: "Importing")
            let report = try store.importContacts(
                from: inputs, intoBook: book.name, skippingInvalid: skipInvalid, existing: existing, progress: progress.update)
            progress.finish()
            for skipped in report.skipped { Terminal.printNotice("Skipped \(skipped)") }
            if !report.unusual.keptNothingUnusual {
                Terminal.printNotice("Kept \(report.unusual.summary) that typed input would refuse.")
            }
            if report.unusual.emptyMessengers > 0 {
                let count = report.unusual.emptyMessengers
                Terminal.printNotice("Left out \(count) messenger\(count == 1 ? "" : "s") without a handle, which reach\(count == 1 ? "es" : "") no one.")
            }
            if !report.extraProperties.isEmpty {
                Terminal.printNotice("Kept as extra properties, written back on export: \(Self.counted(report.extraProperties)).")
            }
            if report.matchedWithoutID > 0 {
                let count = report.matchedWithoutID
                Terminal.printNotice("Found \(count) record\(count == 1 ? "" : "s") without an id among the contacts here: "
                    + "each shares a phone, an email or a handle with one whose name does not differ, as `duplicates` calls certain.")
            }
            let name = inputs.count == 1 ? InputFile.displayName(file) : "\(inputs.count) files"
            // Where contacts may be here already, what became of each is counted, zeros written out.
            let read = report.imported + report.updated + report.unchanged + report.skippedExisting
            let settled = existing == .fail ? "" : ": \(report.imported) added, \(report.updated) updated, "
                + "\(report.unchanged) unchanged, \(report.skippedExisting) skipped"
            let groups = report.groups == 0 ? "" : " and \(report.groups) group card\(report.groups == 1 ? "" : "s")"
            print("Imported \(existing == .fail ? report.imported : read) contacts\(groups) from \(name)" + settled
                  + (report.skipped.isEmpty ? "." : "; skipped \(report.skipped.count) record\(report.skipped.count == 1 ? "" : "s")."))
        }

        /// A file, read through a memory map by the import.
        private static func input(_ path: String) throws -> ImportInput {
            try InputFile.checkReadable(path)
            return .file(path: path)
        }

        /// The .vcf files of `file` when it is a directory, in name order.
        private func vCardDirectory() throws -> [ImportInput]? {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
            let names = try FileManager.default.contentsOfDirectory(atPath: file)
                .filter { $0.lowercased().hasSuffix(".vcf") }.sorted()
            guard !names.isEmpty else {
                throw ContactsDBError.unreadableFile(path: file, reason: "the directory holds no .vcf files")
            }
            return try names.map { try Self.input((file as NSString).appendingPathComponent($0)) }
        }

        private static func counted(_ counts: [String: Int]) -> String {
            counts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        }
    }
}

extension ExistingContacts: ExpressibleByArgument {}
