import RosterKit

/// One side of a review's people, packed so 100,000 a side stay small: every person's key,
/// id, name and email as UTF-8 one after another in one byte array, four offsets a person,
/// and role and status in one byte. A `[ReviewPerson]` spent a Swift string's heap storage on
/// each field (about 330 bytes a person); this spends about the bytes themselves plus 17
/// (docs/benchmarks.md has the measure). A key that is the email as given (the usual case,
/// email already folded) is not stored twice. People come out as `ReviewPerson` values.
public struct ReviewPeople: RandomAccessCollection, Sendable {
    /// The four fields of a person, in the order they lie in `bytes`.
    enum Field: Int { case key = 0, id, name, email }

    /// Every person's fields as UTF-8, one after another.
    private var bytes: [UInt8] = []
    /// Where each field ends in `bytes`, four a person; a person starts where the one before ends.
    private var ends: [UInt32] = []
    /// A byte a person: status in bits 0-1, role in bits 2-4, bit 7 set when the key is the email.
    private var codes: [UInt8] = []
    /// The roles and statuses no code names (`.unknown`), by position: rare.
    private var unusual: [Int: (role: Role?, status: Status)] = [:]

    private static let keyIsEmail: UInt8 = 0x80
    private static let unknownStatus: UInt8 = 3
    private static let unknownRole: UInt8 = 4

    public init() {}

    public init(_ people: some Sequence<ReviewPerson>) {
        for person in people { append(person) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { codes.count }

    public subscript(position: Int) -> ReviewPerson {
        ReviewPerson(key: string(.key, at: position), id: string(.id, at: position), name: string(.name, at: position),
                     email: string(.email, at: position), role: role(at: position), status: status(at: position))
    }

    /// Room for `count` people of about `bytesEach` bytes, so the arrays grow once, not by
    /// doubling (which holds the old and the new copy at once).
    public mutating func reserve(people count: Int, bytesEach: Int) {
        bytes.reserveCapacity(count * bytesEach + count * bytesEach / 8)
        ends.reserveCapacity(count * 4)
        codes.reserveCapacity(count)
    }

    /// The bytes the fields take so far (for `reserve`).
    public var byteCount: Int { bytes.count }

    public mutating func append(_ person: ReviewPerson) {
        let position = codes.count
        var code: UInt8 = 0
        // Bytes, not `==`: a string equal canonically may differ in bytes, and keys match by bytes.
        if person.key.utf8.elementsEqual(person.email.utf8) { code |= Self.keyIsEmail } else { bytes.append(contentsOf: person.key.utf8) }
        precondition(bytes.count + person.id.utf8.count + person.name.utf8.count + person.email.utf8.count <= Int(UInt32.max),
                     "a review side over 4 GB")
        ends.append(UInt32(bytes.count))
        bytes.append(contentsOf: person.id.utf8)
        ends.append(UInt32(bytes.count))
        bytes.append(contentsOf: person.name.utf8)
        ends.append(UInt32(bytes.count))
        bytes.append(contentsOf: person.email.utf8)
        ends.append(UInt32(bytes.count))
        switch person.status {
        case .active: break
        case .suspended: code |= 1
        case .invited: code |= 2
        case .unknown: code |= Self.unknownStatus
        }
        switch person.role {
        case nil: break
        case .admin: code |= 1 << 2
        case .member: code |= 2 << 2
        case .viewer: code |= 3 << 2
        case .unknown: code |= Self.unknownRole << 2
        }
        if code & 3 == Self.unknownStatus || (code >> 2) & 7 == Self.unknownRole {
            unusual[position] = (person.role, person.status)
        }
        codes.append(code)
    }

    public func status(at position: Int) -> Status {
        switch codes[position] & 3 {
        case 0: .active
        case 1: .suspended
        case 2: .invited
        default: unusual[position]!.status
        }
    }

    public func role(at position: Int) -> Role? {
        switch (codes[position] >> 2) & 7 {
        case 0: nil
        case 1: .admin
        case 2: .member
        case 3: .viewer
        default: unusual[position]!.role
        }
    }

    func string(_ field: Field, at position: Int) -> String {
        let range = self.range(field, at: position)
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    func isKeyEmpty(at position: Int) -> Bool { range(.key, at: position).isEmpty }

    /// Whether a field's bytes are the same here and in `other` (no strings made).
    func same(_ field: Field, at position: Int, as other: ReviewPeople, at otherPosition: Int) -> Bool {
        let mine = range(field, at: position), theirs = other.range(field, at: otherPosition)
        guard mine.count == theirs.count else { return false }
        return bytes.withUnsafeBufferPointer { a in
            other.bytes.withUnsafeBufferPointer { b in
                a[mine].elementsEqual(b[theirs])
            }
        }
    }

    func hashKey(at position: Int) -> Int {
        let range = self.range(.key, at: position)
        return bytes.withUnsafeBufferPointer { buffer in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[range])))
            return hasher.finalize()
        }
    }

    private func range(_ field: Field, at position: Int) -> Range<Int> {
        if field == .key, codes[position] & Self.keyIsEmail != 0 { return range(.email, at: position) }
        let slot = position * 4 + field.rawValue
        let start = slot == 0 ? 0 : Int(ends[slot - 1])
        return start..<Int(ends[slot])
    }
}

extension ReviewPeople {
    /// The source's person for each key, an active one before any other of the same key: an
    /// open-addressing table of positions into the people's own bytes, so no key is copied.
    struct KeyIndex {
        private var slots: [Int32]
        private let mask: Int
        /// People of the indexed side who share their key with another.
        private(set) var duplicates = 0

        init(_ people: ReviewPeople) {
            precondition(people.count < Int(Int32.max), "a review side over 2 billion people")
            var size = 16
            while size < people.count * 2 { size *= 2 }
            slots = Array(repeating: -1, count: size)
            mask = size - 1
            for position in people.indices where !people.isKeyEmpty(at: position) {
                var slot = people.hashKey(at: position) & mask
                while true {
                    let held = Int(slots[slot])
                    if held < 0 {
                        slots[slot] = Int32(position)
                        break
                    }
                    if people.same(.key, at: held, as: people, at: position) {
                        duplicates += 1
                        if people.status(at: held) != .active, people.status(at: position) == .active { slots[slot] = Int32(position) }
                        break
                    }
                    slot = (slot + 1) & mask
                }
            }
        }

        /// The indexed person whose key is the key of `other`'s person at `position`.
        func position(ofKeyAt position: Int, in other: ReviewPeople, indexed people: ReviewPeople) -> Int? {
            guard !other.isKeyEmpty(at: position) else { return nil }
            var slot = other.hashKey(at: position) & mask
            while true {
                let held = Int(slots[slot])
                if held < 0 { return nil }
                if people.same(.key, at: held, as: other, at: position) { return held }
                slot = (slot + 1) & mask
            }
        }
    }
}
