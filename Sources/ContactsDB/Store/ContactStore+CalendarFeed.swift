import GRDB

extension ContactStore {
    // MARK: - The calendar feed's token

    /// The token of the birthday calendar's feed (`serve`'s
    /// `/calendar/TOKEN/birthdays.ics`), made the first time it is asked
    /// for and kept in the database until
    /// ``replaceCalendarFeedToken()``. It opens the feed and nothing else.
    public func calendarFeedToken() throws -> String {
        if let token = try read({ try Settings.value(Settings.calendarFeedTokenKey, $0) }) { return token }
        return try writeSetting { db in
            // Another process may have made one since the read.
            if let token = try Settings.value(Settings.calendarFeedTokenKey, db) { return token }
            let token = Self.randomToken()
            try Settings.set(Settings.calendarFeedTokenKey, to: token, db)
            return token
        }
    }

    /// Makes a new feed token, which replaces the old one at once (a
    /// calendar subscribed with the old address gets nothing more).
    ///
    /// - returns: the new token.
    public func replaceCalendarFeedToken() throws -> String {
        let token = Self.randomToken()
        try writeSetting { try Settings.set(Settings.calendarFeedTokenKey, to: token, $0) }
        return token
    }

    /// The port the web app last listened on for this database, if it
    /// ever has: the one a calendar subscribed to its feed knows.
    public func webAppPort() throws -> Int? {
        try read { try Settings.value(Settings.webAppPortKey, $0) }.flatMap { Int($0) }
    }

    /// Records the port the web app listens on (``webAppPort()``).
    public func recordWebAppPort(_ port: Int) throws {
        try writeSetting { try Settings.set(Settings.webAppPortKey, to: String(port), $0) }
    }

    /// 256 random bits in hex.
    private static func randomToken() -> String { RandomHex.make(words: 4) }

    /// A write of the engine's own settings: no contact changes, so the
    /// change counter stays where it is.
    private func writeSetting<T>(_ body: (Database) throws -> T) throws -> T {
        try requireOpenedFile()
        return try DatabaseErrorMapping.mapping(path: path) { try writer.write(body) }
    }
}
