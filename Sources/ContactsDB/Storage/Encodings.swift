/// How a phone is keyed in the search tables (`phoneDigits`' rowid,
/// `phoneWindow.phoneKey`): its contact's key and its position, packed as
/// `contactPk * 128 + position` by the views `phoneDigitsOf` and
/// `phoneWindowOf` (Schema/0004, 0005), which every writer reads. A contact holds
/// at most 100 phones, so the position fits in the low 7 bits.
package enum PhoneKey {
    static let positionBits = 7

    /// The SQL expression for the contact key of a packed `key`.
    package static func contactPk(of key: String) -> String { "\(key) >> \(positionBits)" }

    /// The SQL expression for the phone's position of a packed `key`.
    package static func position(of key: String) -> String { "\(key) & \((1 << positionBits) - 1)" }
}
