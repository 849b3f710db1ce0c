import ContactsDBFuzzing

@main
enum FuzzMigrations {
    static func main() throws {
        try Fuzzing.run { "\(Fuzzing.checkMigrationRecords($0))" }
    }
}
