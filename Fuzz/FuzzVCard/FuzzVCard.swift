import ContactsDBFuzzing

@main
enum FuzzVCard {
    static func main() throws {
        try Fuzzing.run { bytes in
            let read = Fuzzing.readVCard(bytes)
            Fuzzing.roundTripVCard(bytes)
            return "\(read)"
        }
    }
}
