import ContactsDBFuzzing

@main
enum FuzzJSON {
    static func main() throws {
        try Fuzzing.run { "\(Fuzzing.readJSON($0))" }
    }
}
