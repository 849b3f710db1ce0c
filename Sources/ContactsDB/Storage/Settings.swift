import GRDB

/// The database's own key-value settings, in the `setting` table: what the
/// engine records about itself (the collation that computed the keys, a
/// declined seed), never user data.
package enum Settings {
    /// The version of the rules that computed the stored derived fields
    /// (``DerivedFields/version``: ICU's collation, libphonenumber).
    package static let collationVersionKey = "collationVersion"
    /// When the bundled seed was declined (`init --no-seed`).
    package static let bundledSeedDeclinedKey = "bundledSeedDeclinedAt"

    /// The backup taken before an upgrade that has not ended yet, and the
    /// last migration of that upgrade (`PATH` U+001F `MIGRATION`): an
    /// upgrade killed and resumed keeps that backup, of the version the
    /// database had, rather than taking one of a half-upgraded file.
    package static let upgradeBackupKey = "upgradeBackup"

    /// The regions numbers without "+" are read in (`RU,KR`).
    package static let phoneRegionsKey = "phoneRegions"

    /// The birthday calendar feed's token (`serve`'s
    /// `/calendar/TOKEN/birthdays.ics`), kept until replaced.
    package static let calendarFeedTokenKey = "calendarFeedToken"
    /// The port the web app last listened on, which the feed's address
    /// names when `serve --feed-url` is given none.
    package static let webAppPortKey = "webAppPort"

    package static func phoneRegions(_ db: Database) throws -> PhoneRegions {
        try value(phoneRegionsKey, db).flatMap(PhoneRegions.init) ?? .default
    }

    package static func value(_ key: String, _ db: Database) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM setting WHERE key = ?"), arguments: [key])
    }

    /// ``value(_:_:)`` in a database that may be older than the table (a
    /// new file, before its first migration).
    package static func valueBeforeMigrating(_ key: String, _ db: Database) throws -> String? {
        try db.tableExists("setting") ? value(key, db) : nil
    }

    package static func set(_ key: String, to value: String, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)")
            .execute(arguments: [key, value])
    }

    package static func remove(_ key: String, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM setting WHERE key = ?").execute(arguments: [key])
    }
}
