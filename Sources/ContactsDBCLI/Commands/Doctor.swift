import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Check integrity, foreign keys, migrations, counts, seed and collation; say what is wrong and the fix.",
            discussion: "Exits 0 only when all is well, 70 when something needs fixing.")

        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let store = try database.openStore()
            let findings = try store.diagnose()
            let width = findings.map(\.check.count).max() ?? 0
            for finding in findings {
                let check = finding.check.padding(toLength: width, withPad: " ", startingAt: 0)
                print("\(finding.isHealthy ? "ok     " : "PROBLEM") \(check)  \(finding.detail)")
            }
            if findings.contains(where: { !$0.isHealthy }) { throw ExitCode(70) }
        }
    }
}
