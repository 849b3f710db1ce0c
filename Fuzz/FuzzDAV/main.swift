import ContactsDBFuzzing

@main
enum FuzzDAV {
    static func main() throws {
        try Fuzzing.run { "\(Fuzzing.readDAV($0))" }
    }
}
