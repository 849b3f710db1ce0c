import ContactsDBFuzzing

@main
enum FuzzCSV {
    static func main() throws {
        try Fuzzing.run { bytes in
            let read = Fuzzing.readCSV(bytes)
            Fuzzing.roundTripVCard(bytes, isCSV: true)
            return "\(read)"
        }
    }
}
