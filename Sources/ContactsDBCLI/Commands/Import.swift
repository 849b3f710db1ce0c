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
        @Flag(help: "Skip records that cannot be read or break a rule (a vCard card, a JSON contact), and report them, instead of importing nothing.")
        var skipInvalid = false
        @OptionGroup var book: BookOption

        func run() throws {
            guard file == "-" else { return try run(inputs: try vCardDirectory() ?? [try Self.input(file)]) }
            try InputFile.spoolingStandardInput { path in
                try run(inputs: [.file(path: path, source: InputFile.displayName(file))])
            }
        }

        private func run(inputs: [ImportInput]) throws {
            let store = try database.openStore()
            let progress = Terminal.ProgressBar(label: "Importing")
            let report = try store.importContacts(from: inputs, intoBook: book.book, skippingInvalid: skipInvalid, progress: progress.update)
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
            let name = inputs.count == 1 ? InputFile.displayName(file) : "\(inputs.count) files"
            let groups = report.groups == 0 ? "" : " and \(report.groups) group card\(report.groups == 1 ? "" : "s")"
            print("Imported \(report.imported) contacts\(groups) from \(name)"
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
