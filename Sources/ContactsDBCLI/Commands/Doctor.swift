import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Check integrity, foreign keys, migrations, counts, seed and collation; say what is wrong and the fix.",
            discussion: """
                Exits 0 only when all is well, 70 when something needs fixing, 74 when the file cannot \
                be opened at all (smashed, or not a contacts database), which it reports as a problem too.
                """)

        @OptionGroup var database: DatabaseOptions

        func run() throws {
            // A smashed file fails to open, or fails the checks themselves:
            // either way it is the finding to report.
            let findings: [Diagnosis]
            do {
                findings = try database.openStore().diagnose()
            } catch let error as ContactsDBError {
                switch error {
                case .databaseUnavailable, .notContactsDatabase, .migrationRecordsDamaged, .migrationEdited, .databaseTooNew:
                    // The finding on stdout, and the error as every command gives it.
                    print("PROBLEM file  \(error.localizedDescription)")
                    throw error
                default:
                    throw error
                }
            }
            let width = findings.map(\.check.count).max() ?? 0
            for finding in findings {
                let check = finding.check.padding(toLength: width, withPad: " ", startingAt: 0)
                print("\(finding.isHealthy ? "ok     " : "PROBLEM") \(check)  \(finding.detail)")
            }
            if findings.contains(where: { !$0.isHealthy }) { throw ExitCode(70) }
        }
    }
}
