import GRDB

/// The database's own key-value settings, in the `setting` table: what the
/// engine records about itself (the collation that computed the keys, a
/// declined seed), never user data.
enum Settings {
    /// The ICU collation version that computed the stored sort keys.
    static let collationVersionKey = "collationVersion"
    /// When the bundled seed was declined (`init --no-seed`).
    static let bundledSeedDeclinedKey = "bundledSeedDeclinedAt"

    static func value(_ key: String, _ db: Database) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM setting WHERE key = ?"), arguments: [key])
    }

    static func set(_ key: String, to value: String, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)")
            .execute(arguments: [key, value])
    }
}
