import Foundation
import GRDB
import Logging
import NIOPosix
import RosterKit

/// A SQLite directory that does not exist yet, made with its demo users and groups already in it: built
/// in a staging file beside its path with no journal, flushed to disk, then linked into place
/// in one step.
///
/// Seeding an open database in WAL mode writes every page twice, into the WAL at commit and
/// into the file at the checkpoint: 880 MB each at a million users, five of the seed's thirty
/// seconds. A file nobody can have opened needs no journal, since a crash while it is built
/// leaves only the staging file, which the next start with `--seed` removes.
enum SeededFile {
    /// Creates `path` holding `count` demo users and their groups, unless `path` exists already.
    /// - Returns: whether it created the file.
    @discardableResult
    static func createIfMissing(path: String, count: Int, logger: Logger) async throws -> Bool {
        guard count > 0, !exists(path) else { return false }
        let started = ContinuousClock.now
        let created = try await NIOThreadPool.singleton.runIfActive {
            try create(path: path, directory: DemoData.directory(userCount: count), logger: logger)
        }
        if created {
            logger.notice("seeded demo users", metadata: [
                "count": "\(count)", "duration": "\(ContinuousClock.now - started)",
            ])
        }
        return created
    }

    /// - Returns: false when `path` exists (made meanwhile by another process, whose file is
    ///   kept) or cannot be linked on its file system; the caller then seeds the usual way.
    static func create(path: String, directory: BulkDirectory, logger: Logger = UserAPIServer.silentLogger) throws -> Bool {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Two servers started on one new path take turns: the second finds the file made.
        let folderLock = try FolderLock(folder.path)
        defer { folderLock.unlock() }
        let staging = url.path + ".seeding"
        // A staging file left by a crash, even one already linked into place, is only a name.
        try removeIfPresent(staging)
        guard !exists(url.path) else { return false }
        defer { try? removeIfPresent(staging) }

        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // The staging file is thrown away on any failure, so it needs no rollback journal,
            // and it is flushed once, whole, before it is linked into place.
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            SQLiteDatabase.addFunctions(to: db)
        }
        let queue = try DatabaseQueue(path: staging, configuration: configuration)
        try Schema.migrator.migrate(queue)
        try queue.write { db in try BulkLoad.insert(directory, in: db) }
        try queue.close()

        try flush(staging)
        // link(2), unlike rename(2), never replaces a file another process made meanwhile.
        guard link(staging, url.path) == 0 else {
            let code = errno
            if code == EEXIST { return false }
            // No hard links here (FAT, some network and FUSE mounts): seed in place instead.
            if [EPERM, ENOTSUP, EOPNOTSUPP, ENOSYS, EMLINK, EXDEV].contains(code) {
                logger.notice("this file system has no hard links; seeding the database in place", metadata: ["path": "\(path)"])
                return false
            }
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        // The new name is durable once its folder is. Some file systems refuse to sync a
        // folder; SQLite ignores that too.
        try? flush(folder.path)
        return true
    }

    /// Whether anything is at `path`, a dangling symbolic link included.
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private static func removeIfPresent(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    private static func flush(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}

/// An exclusive `flock` on a folder, held until `unlock()`: no lock file is left behind.
private struct FolderLock {
    private let descriptor: Int32

    init(_ path: String) throws {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard flock(descriptor, LOCK_EX) == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    func unlock() {
        close(descriptor) // closing releases the lock
    }
}
