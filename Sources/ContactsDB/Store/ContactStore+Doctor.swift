import Foundation
import GRDB

/// One finding of ``ContactStore/diagnose()``.
public struct Diagnosis: Hashable, Sendable {
    /// The check's name (`integrity`, `foreign keys`, …).
    public var check: String
    /// Whether the check passed.
    public var isHealthy: Bool
    /// What was found; for a problem, what is wrong and the fix.
    public var detail: String
}

extension ContactStore {
    /// Checks the database: SQLite's integrity check, foreign keys,
    /// migrations, the maintained counts, phone windows, name words and
    /// attributes, the seed and the collation.
    public func diagnose() throws -> [Diagnosis] {
        try read { db in
            try fileDiagnoses(db) + Self.derivedDiagnoses(db) + Self.recordDiagnoses(db)
        }
    }

    /// The file's own health: SQLite's integrity, foreign keys, migrations.
    private func fileDiagnoses(_ db: Database) throws -> [Diagnosis] {
        var findings: [Diagnosis] = []
        let integrity = try HealthChecks.integrity(db)
        findings.append(integrity == ["ok"]
            ? Diagnosis(check: "integrity", isHealthy: true, detail: "SQLite's integrity check passes")
            : Diagnosis(check: "integrity", isHealthy: false, detail: "\(integrity.prefix(3).joined(separator: "; ")); restore the file from a backup (contactsdb backup makes one)"))

        let orphans = try HealthChecks.orphanTables(db)
        findings.append(orphans.isEmpty
            ? Diagnosis(check: "foreign keys", isHealthy: true, detail: "every child row has its contact")
            : Diagnosis(check: "foreign keys", isHealthy: false, detail: "\(orphans.count) rows point at missing contacts (first in \(orphans[0])); export what you need and rebuild, or restore a backup"))

        let status = try migrator.status(db, path: path)
        findings.append(Diagnosis(
            check: "migrations", isHealthy: status.pending.isEmpty,
            detail: status.pending.isEmpty
                ? "at \(migrator.migrations.last?.identifier ?? "none") (\(status.applied.count) applied, checksums match)"
                : "pending: \(status.pending.map(\.identifier).joined(separator: ", ")); run contactsdb migrate"))
        return findings
    }

    /// What every write maintains beside the contacts, and the books.
    private static func derivedDiagnoses(_ db: Database) throws -> [Diagnosis] {
        var findings: [Diagnosis] = []
        for (check, condition, healthy, problem): (String, HealthChecks.Condition, String, String) in [
            ("counts", .countsMatch, "section and attribute counts match the contacts",
             "the kept section or attribute counts differ from the contacts"),
            ("phone search", .phoneWindowsMatch, "every number's digit windows are indexed",
             "the indexed digit windows differ from the phones"),
            ("name words", .nameWordsMatch, "each contact's name words agree in both places",
             "the name words kept with the contacts differ from the name-word index"),
            ("attributes", .attributesMatch, "each contact's attributes match its children",
             "some contacts' attributes differ from their phones, emails, addresses or messengers"),
            ("text search", .searchIndexMatches, "the search index holds every contact's words",
             "the search index differs from the contacts' words"),
        ] {
            let matches = try HealthChecks.holds(condition, db)
            findings.append(Diagnosis(
                check: check, isHealthy: matches, detail: matches ? healthy : "\(problem); run contactsdb reindex"))
        }
        // Not derived, so no reindex mends it: a move puts a contact into a book, with its groups.
        let booksHold = try HealthChecks.holds(.booksHoldTheirContacts, db)
        findings.append(Diagnosis(check: "books", isHealthy: booksHold, detail: booksHold
            ? "every contact and group is in a book, with members of its own book"
            : "some contacts name no book, no book or several are the default, or groups hold another book's contacts; "
                + "restore a backup, or put the contacts into a book with contactsdb move"))
        let kept = try HealthChecks.holds(.trashAndHistoryAreWhole, db)
        findings.append(Diagnosis(check: "trash and history", isHealthy: kept, detail: kept
            ? "each deleted contact and kept version reads whole"
            : "some deleted contacts or kept versions cannot be read; restore a backup, or forget them with "
                + "contactsdb trash empty and contactsdb compact --history-before"))
        return findings
    }

    /// The seed imported, and the collation the keys were computed by.
    private static func recordDiagnoses(_ db: Database) throws -> [Diagnosis] {
        let seeds = try SeedRecords.all(db)
        let declined = try Settings.value(Settings.bundledSeedDeclinedKey, db)
        let stored = try Reindexer.storedVersion(db)
        return [
            Diagnosis(check: "seed", isHealthy: true, detail: seeds.isEmpty
                ? (declined.map { "never seeded; the bundled seed was declined on \($0)" } ?? "never seeded")
                : seeds.map { "\($0.source) (\($0.contactCount) contacts) on \(Timestamp.string(from: $0.importedAt))" }
                    .joined(separator: ", ")),
            stored == DerivedFields.version
                ? Diagnosis(check: "collation", isHealthy: true, detail: "keys computed by \(DerivedFields.version)")
                : Diagnosis(check: "collation", isHealthy: false, detail: "keys computed by \(stored ?? "an unknown collation"), this build has \(DerivedFields.version); run contactsdb reindex"),
        ]
    }
}
