import ContactsDBFuzzing

@main
enum FuzzCSV {
    static func main() throws {
        try Fuzzing.run { "\(Fuzzing.readCSV($0))" }
    }
}
