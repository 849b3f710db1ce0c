import ContactsDB
import CVips
import Foundation

/// A deterministic synthetic data set in the shape of real address books:
/// names about 60% Latin (some with diacritics), 25% Cyrillic, 15% Hangul;
/// on average 1.5 phones (Russian, Korean and US formats), 1.2 emails,
/// 0.5 addresses and 0.8 messengers a contact; about 10% without a first
/// name, 10% without a last name and 5% company only; 5% favorites and a
/// quarter in one or two groups; a job title on 30%, a birthday on 40%
/// (a tenth of them without a year) and a note on 20%, whose words are
/// common ("call" is in a third of them) but for one reference number
/// (`ref12345`), shared by a handful of contacts.
///
/// The same `count` and `seed` always give the same contacts; photos and
/// the whole card's fields come from random streams of their own, so that
/// the other fields are those of earlier builds.
public struct SyntheticContacts: Sequence, Sendable {
    public let count: Int
    public let seed: UInt64
    public let photos: Photos?

    /// Which contacts get a photo, and how large.
    public struct Photos: Sendable {
        /// The share of contacts with a photo, 0 to 100.
        public var percent: Int
        /// Each photo's size in bytes: a JPEG of 640×480 pixels padded with
        /// comment segments (which decoders skip) up to this size; 0 leaves
        /// it as encoded (about 10 KB).
        public var bytes: Int

        public init(percent: Int, bytes: Int = 0) {
            self.percent = percent
            self.bytes = bytes
        }
    }

    public init(count: Int, seed: UInt64 = 1, photos: Photos? = nil) {
        self.count = count
        self.seed = seed
        self.photos = photos
    }

    public func makeIterator() -> Iterator {
        let photo = photos.flatMap { _ in try? PhotoImage.sample(width: 640, height: 480, format: CVIPS_JPEG) }
        return Iterator(remaining: count, random: SplitMix64(seed: seed), photos: photos, photo: photo,
                        photoRandom: SplitMix64(seed: ~seed), detailRandom: SplitMix64(seed: seed ^ 0x5DEE_CE66_D1B5_4A32))
    }

    public struct Iterator: IteratorProtocol {
        var remaining: Int
        var random: SplitMix64
        var index = 0
        let photos: Photos?
        /// The JPEG every photo is made from.
        let photo: Data?
        var photoRandom: SplitMix64
        var detailRandom: SplitMix64

        public mutating func next() -> ContactDraft? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            index += 1
            var draft = makeContact(number: index)
            addDetails(to: &draft)
            if let photos, let photo, photoRandom.below(100) < photos.percent {
                draft.photo = ContactPhoto(mediaType: "image/jpeg", data: Self.padded(photo, number: index, to: photos.bytes))
            }
            return draft
        }

        /// `jpeg` with comment segments after its start marker up to `size`
        /// bytes, the first naming the contact so that no two photos are
        /// the same bytes.
        static func padded(_ jpeg: Data, number: Int, to size: Int) -> Data {
            var result = Data(jpeg.prefix(2))
            result.reserveCapacity(Swift.max(size, jpeg.count))
            var remaining = size - jpeg.count, label = Array("contact \(number)".utf8)
            while remaining > 4 {
                let payload = Swift.min(remaining - 4, 65_533)
                result += [0xFF, 0xFE, UInt8((payload + 2) >> 8), UInt8((payload + 2) & 0xFF)]
                result += label.prefix(payload) + Array(repeating: 0x20, count: Swift.max(0, payload - label.count))
                label = []
                remaining -= payload + 4
            }
            return result + jpeg.dropFirst(2)
        }

        private mutating func makeContact(number: Int) -> ContactDraft {
            var draft = ContactDraft(id: "c\(number)")
            let script = random.below(100)
            let names = script < 60 ? Names.latin : script < 85 ? Names.cyrillic : Names.hangul
            let shape = random.below(100)
            if shape < 5 {
                draft.company = pick(Names.companies) + " " + pick(Names.companySuffixes)
            } else {
                if shape >= 15 { draft.firstName = pick(names.first) }
                if shape < 15 || shape >= 25 { draft.lastName = pick(names.last) }
                if random.below(100) < 20 { draft.company = pick(Names.companies) }
            }
            if random.below(100) < 70 { draft.age = 18 + random.below(70) }
            draft.phones = (0..<random.weighted([25, 25, 25, 25])).map { _ in makePhone() }  // 0…3, mean 1.5
            let handle = (draft.firstName ?? draft.lastName ?? draft.company ?? "x").unicodeScalars
                .filter { $0.isASCII && $0.properties.isAlphabetic }.map(String.init).joined().lowercased()
            let local = (handle.isEmpty ? "user" : handle) + String(number)
            draft.emails = (0..<random.weighted([20, 45, 30, 5])).map { position in  // mean 1.2
                Email(type: position == 0 ? "home" : "work", value: "\(local).\(position)@\(pick(Names.domains))")
            }
            draft.addresses = (0..<random.weighted([55, 40, 5])).map { _ in  // mean 0.5
                let place = pick(Names.places)
                return Address(type: "home", street1: "\(1 + random.below(200)) \(pick(Names.streets))",
                               city: place.city, zipcode: String(10000 + random.below(89999)), country: place.country)
            }
            draft.isFavorite = random.below(100) < 5
            draft.groups = (0..<random.weighted([75, 20, 5])).map { _ in pick(Names.groups) }
            var services = MessengerService.allCases
            draft.messengers = (0..<random.weighted([40, 45, 10, 5])).map { _ in  // mean 0.8
                let service = services.remove(at: random.below(services.count))
                return Messenger(service: service.rawValue, handle: "@\(local)")
            }
            return draft
        }

        private mutating func addDetails(to draft: inout ContactDraft) {
            if detailRandom.below(100) < 30 { draft.jobTitle = Names.titles[detailRandom.below(Names.titles.count)] }
            if detailRandom.below(100) < 40 {
                let month = 1 + detailRandom.below(12), day = 1 + detailRandom.below(28)
                let year = detailRandom.below(10) == 0 ? "-" : String(1940 + detailRandom.below(68))
                draft.birthday = year + "-" + (month < 10 ? "0" : "") + String(month) + "-" + (day < 10 ? "0" : "") + String(day)
            }
            if detailRandom.below(100) < 20 {
                var words: [String] = []
                for _ in 0..<(3 + detailRandom.below(10)) {
                    // Squaring skews the picks toward the list's head, as
                    // word frequencies are.
                    let u = Double(detailRandom.below(1_000_000)) / 1_000_000
                    words.append(Names.noteWords[Int(u * u * Double(Names.noteWords.count))])
                }
                if detailRandom.below(3) == 0 { words.insert("call", at: 0) }
                words.append("ref" + String(detailRandom.below(50_000)))
                draft.note = words.joined(separator: " ")
            }
        }

        private mutating func makePhone() -> Phone {
            let type = pick(["mobile", "mobile", "home", "work"])
            switch random.below(10) {
            case 0..<4:
                let n = digits(10, first: "9")
                return Phone(type: type, value: "+7 \(n.prefix(3)) \(n.dropFirst(3).prefix(3))-\(n.dropFirst(6).prefix(2))-\(n.suffix(2))")
            case 4..<5:
                let n = digits(10, first: "9")
                return Phone(type: type, value: "8 (\(n.prefix(3))) \(n.dropFirst(3).prefix(3))-\(n.suffix(4))")
            case 5..<7:
                let n = digits(8)
                return Phone(type: type, value: "010-\(n.prefix(4))-\(n.suffix(4))")
            case 7..<8:
                let n = digits(8)
                return Phone(type: type, value: "+82 10 \(n.prefix(4)) \(n.suffix(4))")
            default:
                let n = digits(10, first: "4")
                return Phone(type: type, value: "+1 (\(n.prefix(3))) \(n.dropFirst(3).prefix(3))-\(n.suffix(4))")
            }
        }

        private mutating func digits(_ count: Int, first: Character? = nil) -> String {
            var result = first.map(String.init) ?? ""
            while result.count < count { result.append(Character(String(random.below(10)))) }
            return result
        }

        private mutating func pick<T>(_ items: [T]) -> T { items[random.below(items.count)] }
    }
}

/// A small, fast, seedable generator (SplitMix64).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// An index drawn with the given percentage weights.
    mutating func weighted(_ weights: [Int]) -> Int {
        var roll = below(weights.reduce(0, +))
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }
}

private enum Names {
    static let titles = ["Engineer", "Manager", "Sales Director", "Accountant", "Designer", "Teacher", "Nurse",
                         "Software Developer", "Product Owner", "Consultant", "Врач", "Инженер", "Бухгалтер",
                         "교사", "개발자", "Architect", "Chef", "Lawyer", "Student", "Photographer"]
    static let noteWords = ["the", "and", "met", "at", "lunch", "with", "friend", "of", "work", "project", "school",
                            "party", "neighbour", "gym", "trip", "conference", "birthday", "gift", "book", "coffee",
                            "встреча", "работа", "дача", "друг", "회의", "친구", "plumber", "dentist", "landlord",
                            "tennis", "chess", "sauna", "choir", "orchard", "violin", "kayak", "pottery", "zither"]

    static let latin = (
        first: ["Anna", "Andrew", "André", "Ángel", "Benjamin", "Chloé", "Daniel", "Élodie", "Emma", "François",
                "Hannah", "Isabel", "Jürgen", "Lars", "Léa", "Liam", "Lucía", "Marta", "Mia", "Noah", "Olivia",
                "Paul", "Søren", "Sofia", "Thomas", "Zoë", "Ana", "Antoine", "Björn", "Ñuño"],
        last: ["Anderson", "Andrews", "Brown", "Castaño", "Dubois", "Fernández", "García", "Hoffmann", "Jensen",
               "Johnson", "Kowalski", "Lefèvre", "López", "Martin", "Müller", "Nowak", "O'Brien", "Østergaard",
               "Schmidt", "Smith", "Svensson", "Taylor", "Wagner", "Williams", "Åberg", "Ångström", "Zimmermann"])
    static let cyrillic = (
        first: ["Александр", "Алексей", "Анна", "Анастасия", "Андрей", "Борис", "Вера", "Дмитрий", "Екатерина",
                "Елена", "Ёлка", "Иван", "Игорь", "Йозеф", "Мария", "Наталья", "Ольга", "Сергей", "Юлия", "Ярослав"],
        last: ["Андреев", "Борисова", "Васильев", "Ёлкин", "Жуков", "Иванов", "Иванова", "Йодко", "Козлов",
               "Кузнецова", "Лебедев", "Морозов", "Новикова", "Орлов", "Петров", "Смирнова", "Соколов", "Шевченко",
               "Щукин", "Эйхман", "Юдин", "Яковлева"])
    static let hangul = (
        first: ["민준", "서연", "지우", "하윤", "도윤", "서준", "지민", "수아", "예준", "아린", "건우", "나래"],
        last: ["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임", "한", "오", "서", "신", "권", "황"])
    static let companies = ["Acme", "Globex", "Initech", "Umbrella", "Яндекс", "Газпром", "삼성", "Hooli",
                            "Vandelay", "Stark", "Wayne", "Тинькофф", "카카오", "Müller & Söhne"]
    static let companySuffixes = ["Inc.", "GmbH", "LLC", "ООО", "주식회사", "Ltd"]
    static let groups = ["Family", "Work", "Friends", "Клуб", "동료"]
    static let domains = ["example.com", "example.ru", "example.kr", "mail.example", "corp.example"]
    static let streets = ["Main St", "Oak Ave", "ул. Ленина", "Невский пр.", "세종대로", "Baker St", "Hauptstraße"]
    static let places: [(city: String, country: String)] = [
        ("Moscow", "Russia"), ("Москва", "Россия"), ("Санкт-Петербург", "Россия"), ("Seoul", "South Korea"),
        ("서울", "대한민국"), ("Berlin", "Germany"), ("München", "Germany"), ("New York", "USA"),
        ("San Francisco", "USA"), ("Zürich", "Switzerland"), ("Paris", "France"),
    ]
}
