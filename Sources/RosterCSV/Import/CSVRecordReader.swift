import Foundation

/// One record of a CSV file: its fields, and the line it starts on (1 is the file's first).
public struct CSVRecord: Sendable, Equatable {
    public var line: Int
    public var fields: [String]
}

/// Reads an RFC 4180 file a block at a time, one record per call: a file of 100,000 rows is
/// never in memory whole (only a block and the record being read). UTF-8 with or without a
/// BOM; `,` `;` or tab, whichever the header line holds most of outside quotes; records end
/// at CRLF, LF or CR; a quoted field may hold delimiters, line breaks and doubled quotes.
///
/// Not SwiftCSV (which writes nothing here and is no longer a dependency): its 0.10.0 parses
/// from one `String` of the whole file, so a 100,000-row preview held the file's text and
/// every record at once (docs/design.md, "Import", has the figures).
public final class CSVRecordReader {
    /// Bytes read from disk at a time.
    public static let blockSize = 64 * 1024

    public let path: String
    public private(set) var delimiter: UInt8 = UInt8(ascii: ",")
    /// Entra ID's bulk templates start with `version:v1.0` above the header: skipped.
    public private(set) var skippedVersionLine = false
    /// The most bytes held at once (the block plus the record being read): the memory bound.
    public private(set) var peakBufferedBytes = 0
    /// Bytes read from the file so far.
    public private(set) var bytesRead = 0

    /// The file, read a block at a time; nil for text given whole (tests).
    private let handle: FileHandle?
    private var hash = StableHash()
    private var buffer: [UInt8] = []
    private var position = 0
    private var line = 1

    private static let quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

    public init(path: String) throws(ImportFileError) {
        self.path = path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportFileError(FileManager.default.fileExists(atPath: path) ? "Cannot read \(path)." : "There is no file \(path).")
        }
        self.handle = handle
        refill()
        start()
    }

    /// Text already in memory, as one block: for tests of the format.
    public init(data: Data, path: String) {
        self.path = path
        handle = nil
        buffer = [UInt8](data)
        bytesRead = buffer.count
        hash.add(buffer)
        start()
    }

    /// A hash of the bytes read so far: of the whole file, once the last record is read.
    public var fileHash: String { hash.hex }

    private func start() {
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        if startsWithVersionLine() {
            skipLine()
            skippedVersionLine = true
        }
        delimiter = guessDelimiter()
    }

    deinit { try? handle?.close() }

    /// The next record; nil at the end of the file. A quote left open, or bytes that are not
    /// UTF-8, are an error naming the line.
    public func next() throws(ImportFileError) -> CSVRecord? {
        guard var byte = read() else { return nil }
        let start = line
        var fields: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var wasQuoted = false
        record: while true {
            if inQuotes {
                if byte == Self.quote {
                    if peek() == Self.quote { field.append(Self.quote); position += 1 } else { inQuotes = false }
                } else {
                    if byte == Self.lf || (byte == Self.cr && peek() != Self.lf) { line += 1 }
                    field.append(byte)
                }
            } else {
                switch byte {
                case Self.quote where field.isEmpty && !wasQuoted:
                    inQuotes = true
                    wasQuoted = true
                case delimiter:
                    fields.append(try text(field, line: start))
                    field.removeAll(keepingCapacity: true)
                    wasQuoted = false
                case Self.cr:
                    if peek() == Self.lf { position += 1 }
                    line += 1
                    break record
                case Self.lf:
                    line += 1
                    break record
                default:
                    field.append(byte)
                }
            }
            peakBufferedBytes = max(peakBufferedBytes, buffer.count + field.count + fields.reduce(0) { $0 + $1.utf8.count })
            guard let following = read() else {
                if inQuotes { throw ImportFileError("\(path): a quote opened on line \(start) is never closed.") }
                break
            }
            byte = following
        }
        fields.append(try text(field, line: start))
        return CSVRecord(line: start, fields: fields)
    }

    private func text(_ bytes: [UInt8], line: Int) throws(ImportFileError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ImportFileError("\(path) is not UTF-8 text (line \(line)); save it as “CSV UTF-8”.")
        }
        return text
    }

    // MARK: Bytes

    private func read() -> UInt8? {
        if position == buffer.count { refill() }
        guard position < buffer.count else { return nil }
        defer { position += 1 }
        return buffer[position]
    }

    /// The next byte without taking it; it may need the next block.
    private func peek() -> UInt8? {
        if position == buffer.count { refill() }
        return position < buffer.count ? buffer[position] : nil
    }

    /// The next block, once the last is used up.
    private func refill() {
        guard position == buffer.count, let handle else { return }
        let data = (try? handle.read(upToCount: Self.blockSize)) ?? nil
        buffer = data.map { [UInt8]($0) } ?? []
        position = 0
        bytesRead += buffer.count
        hash.add(buffer)
    }

    private func startsWithVersionLine() -> Bool {
        let prefix = Array("version:".utf8)
        guard buffer.count - position >= prefix.count else { return false }
        return buffer[position..<position + prefix.count].map { $0 | 0x20 } == prefix
    }

    private func skipLine() {
        while let byte = read() {
            if byte == Self.lf { break }
            if byte == Self.cr {
                if peek() == Self.lf { position += 1 }
                break
            }
        }
        line += 1
    }

    /// The separator the header line uses most, outside quotes (a header has no line break).
    private func guessDelimiter() -> UInt8 {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, UInt8(ascii: "\t"): 0]
        var inQuotes = false
        for byte in buffer[position...] {
            if byte == Self.quote { inQuotes.toggle() }
            if inQuotes { continue }
            if byte == Self.cr || byte == Self.lf { break }
            if counts[byte] != nil { counts[byte, default: 0] += 1 }
        }
        let best = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }
        return best.map { $0.value > 0 ? $0.key : UInt8(ascii: ",") } ?? UInt8(ascii: ",")
    }
}
