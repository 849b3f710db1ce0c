import Foundation

/// Joins contacts that share keys into sets (docs/cli.md, "Duplicates and
/// merging"): a chain of pairs is one set, `certain` when its certain pairs
/// alone connect it. Each key is read once, whatever the number of contacts
/// holding it.
package struct DuplicateGrouping {
    private var all = UnionFind()
    private var certain = UnionFind()
    /// Each key's reasons, by a contact that holds it.
    private var reasons: [(pk: Int64, reasons: [String])] = []

    package init() {}

    /// A key the contacts `pks` share. `names` holds the name of each
    /// contact that has one: under an identifier, contacts whose names do
    /// not differ are certain (a contact without a name differs from none).
    package mutating func add(_ pks: [Int64], reasons: [String], identifier: Bool, names: [Int64: Data]) {
        guard let first = pks.first else { return }
        for pk in pks.dropFirst() { all.union(first, pk) }
        self.reasons.append((first, reasons))
        guard identifier else { return }
        var byName: [Data: Int64] = [:]
        var nameless: Int64?
        for pk in pks {
            if let name = names[pk] {
                if let other = byName[name] { certain.union(other, pk) } else { byName[name] = pk }
            } else if let other = nameless {
                certain.union(other, pk)
            } else {
                nameless = pk
            }
        }
        if let nameless {
            for pk in byName.values { certain.union(nameless, pk) }
        }
    }

    /// Every contact in a set.
    package var members: [Int64] { all.members }

    /// The sets, given every member's key and id in the default sort and
    /// the names of those that have one: a set is certain when its certain
    /// pairs alone connect it and its members have at most one name among
    /// them (a contact without a name never makes two names one person).
    package func sets(inDefaultOrder ordered: [(pk: Int64, id: String)], names: [Int64: Data]) -> [DuplicateSet] {
        var all = all, certain = certain
        var index: [Int64: Int] = [:]
        var sets: [DuplicateSet] = []
        var certainRoots: [Set<Int64>] = [], setNames: [Set<Data>] = []
        for (pk, id) in ordered {
            let root = all.find(pk)
            if let at = index[root] {
                sets[at].ids.append(id)
                certainRoots[at].insert(certain.find(pk))
            } else {
                index[root] = sets.count
                sets.append(DuplicateSet(ids: [id], confidence: .certain, reasons: []))
                certainRoots.append([certain.find(pk)])
                setNames.append([])
            }
            if let name = names[pk] { setNames[index[root]!].insert(name) }
        }
        for (pk, reasons) in self.reasons {
            guard let at = index[all.find(pk)] else { continue }
            for reason in reasons where !sets[at].reasons.contains(reason) { sets[at].reasons.append(reason) }
        }
        for at in sets.indices where certainRoots[at].count > 1 || setNames[at].count > 1 { sets[at].confidence = .likely }
        return sets
    }
}

/// Disjoint sets of contact keys, with path halving.
private struct UnionFind {
    private var parent: [Int64: Int64] = [:]

    var members: [Int64] { Array(parent.keys) }

    mutating func find(_ pk: Int64) -> Int64 {
        var node = pk
        while let up = parent[node], up != node {
            let grand = parent[up] ?? up
            parent[node] = grand
            node = grand
        }
        return node
    }

    mutating func union(_ a: Int64, _ b: Int64) {
        if parent[a] == nil { parent[a] = a }
        if parent[b] == nil { parent[b] = b }
        let (rootA, rootB) = (find(a), find(b))
        if rootA != rootB { parent[max(rootA, rootB)] = min(rootA, rootB) }
    }
}
