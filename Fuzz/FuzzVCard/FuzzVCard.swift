import ContactsDBFuzzing

@main
enum FuzzVCard {
    static func main() throws {
        try Fuzzing.run { "\(Fuzzing.readVCard($0))" }
    }
}
