import Foundation

/// The name of the file a contact's card is written to (`export
/// --directory`): the id itself where it is a plain lower-case name
/// (`seed-acme.vcf`, a lower-case UUID), else a lower-case rendering of it
/// followed by a digest of the whole id (`a_b-5f1d….vcf` for `a/b`). No two
/// ids get one name, also on a file system that folds case (`Anna` and
/// `anna`); the card's UID inside holds the id as stored.
public enum CardFileName {
    /// The file name, `.vcf` included, for the contact with this id.
    public static func of(_ id: String) -> String {
        let scalars = Array(id.unicodeScalars)
        // A plain id never ends as a digest does, so none can take another's name.
        let endsLikeADigest = scalars.count >= 17 && scalars[scalars.count - 17] == "-"
            && scalars.suffix(16).allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
        let isPlain = (1...64).contains(scalars.count) && !endsLikeADigest
            && scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        if isPlain { return id + ".vcf" }
        let rendering = id.lowercased().unicodeScalars.prefix(40)
            .map { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" ? String($0) : "_" }.joined()
        let digest = Checksum.sha256(id.utf8).prefix(16)
        return rendering + "-" + digest + ".vcf"
    }
}
