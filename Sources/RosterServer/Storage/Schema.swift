import GRDB

/// The database schema, as numbered migrations. A migration, once released, never changes:
/// new needs get a new migration.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users, sort keys, trigram search, counts") { db in
            try db.execute(sql: v1)
        }
        migrator.registerMigration("v2: idempotency keys of creates") { db in
            try db.execute(sql: v2)
        }
        migrator.registerMigration("v3: groups and memberships") { db in
            try db.execute(sql: v3)
        }
        migrator.registerMigration("v4: SCIM user names, documents and versions") { db in
            try db.execute(sql: v4)
        }
        migrator.registerMigration("v5: counts of users by one- and two-character substring") { db in
            try db.execute(sql: v5)
        }
        migrator.registerMigration("v6: indexed SCIM emails, externalId, displayName and lastModified") { db in
            try db.execute(sql: v6)
        }
        migrator.registerMigration("v7: named API tokens with scopes") { db in
            try db.execute(sql: v7)
        }
        migrator.registerMigration("v8: the audit log") { db in
            try db.execute(sql: v8)
        }
        return migrator
    }

    // `seq` is the rowid the search index points at; `id` is the public, URL-safe id.
    // `name_key` and `email_key` hold Swift's `lowercased()` in NFC (see `SortKey`): byte order of
    // their UTF-8 is the client's `String` order, so SQLite's BINARY collation sorts exactly as
    // `InMemoryDirectory.ordering` does. Times are milliseconds since 1970, the wire precision.
    // `json` is the user as the API writes it (`UserJSON.object`), made when the row is written:
    // a page is then 50 stored strings joined, not 50 users decoded and re-encoded on every read.
    // Should that format ever change, a migration rewrites the column.
    private static let v1 = """
        CREATE TABLE users (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            email TEXT NOT NULL,
            role TEXT NOT NULL,
            status TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            name_key TEXT NOT NULL,
            email_key TEXT NOT NULL,
            json TEXT NOT NULL
        );
        -- The unique index, not application code, decides which of two racing creates wins.
        CREATE UNIQUE INDEX users_email_key ON users(email_key);
        -- One index per order the list offers. Descending sorts still break ties by ascending id,
        -- so they get their own (key DESC, id) indexes instead of a backward scan.
        CREATE INDEX users_name_asc ON users(name_key, id);
        CREATE INDEX users_name_desc ON users(name_key DESC, id);
        CREATE INDEX users_created_asc ON users(created_at, id);
        CREATE INDEX users_created_desc ON users(created_at DESC, id);

        -- Substring search: trigrams of the (already lower-cased) keys. case_sensitive 1 because
        -- the keys are folded by Swift, so server and client agree on what "case-insensitive" is.
        CREATE VIRTUAL TABLE users_search USING fts5(
            name_key, email_key, content = 'users', content_rowid = 'seq',
            tokenize = 'trigram case_sensitive 1'
        );
        CREATE TRIGGER users_search_insert AFTER INSERT ON users BEGIN
            INSERT INTO users_search(rowid, name_key, email_key) VALUES (new.seq, new.name_key, new.email_key);
        END;
        CREATE TRIGGER users_search_delete AFTER DELETE ON users BEGIN
            INSERT INTO users_search(users_search, rowid, name_key, email_key)
                VALUES ('delete', old.seq, old.name_key, old.email_key);
        END;
        CREATE TRIGGER users_search_update AFTER UPDATE OF name_key, email_key ON users BEGIN
            INSERT INTO users_search(users_search, rowid, name_key, email_key)
                VALUES ('delete', old.seq, old.name_key, old.email_key);
            INSERT INTO users_search(rowid, name_key, email_key) VALUES (new.seq, new.name_key, new.email_key);
        END;

        -- Row counts per (role, status), kept by triggers: `total` of an unsearched list is a
        -- sum over at most nine rows instead of a count over the whole table.
        CREATE TABLE users_count (
            role TEXT NOT NULL,
            status TEXT NOT NULL,
            n INTEGER NOT NULL,
            PRIMARY KEY (role, status)
        ) WITHOUT ROWID;
        CREATE TRIGGER users_count_insert AFTER INSERT ON users BEGIN
            INSERT INTO users_count(role, status, n) VALUES (new.role, new.status, 1)
                ON CONFLICT(role, status) DO UPDATE SET n = n + 1;
        END;
        CREATE TRIGGER users_count_delete AFTER DELETE ON users BEGIN
            UPDATE users_count SET n = n - 1 WHERE role = old.role AND status = old.status;
        END;
        CREATE TRIGGER users_count_update AFTER UPDATE OF role, status ON users BEGIN
            UPDATE users_count SET n = n - 1 WHERE role = old.role AND status = old.status;
            INSERT INTO users_count(role, status, n) VALUES (new.role, new.status, 1)
                ON CONFLICT(role, status) DO UPDATE SET n = n + 1;
        END;
        """

    // One row per `Idempotency-Key` a successful create was sent with, written in the create's
    // own transaction, so no user exists without its key (see `IdempotencyRecord`).
    // `request_body` is the request's body itself, the fingerprint a retry is compared with;
    // `response` is the envelope of the first answer, sent again as it was.
    private static let v2 = """
        CREATE TABLE idempotency_keys (
            key TEXT PRIMARY KEY,
            request_body BLOB NOT NULL,
            user_id TEXT NOT NULL,
            response TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        -- Expired keys are purged by age.
        CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
        """

    // Groups, and which users are in them. `name_key` is the folded name (`SortKey`), unique, so
    // names are unique case-insensitively and the name order needs no tie-break.
    // `member_count` is kept by triggers, so a page of groups does not count its members.
    // Memberships go with their group or user (ON DELETE CASCADE, in the deleting transaction);
    // the cascade fires the count triggers too. Users' stored JSON carries their groups; the
    // store rewrites it whenever a membership or a group's name changes (`SQLiteRows.refreshJSON`).
    private static let v3 = """
        CREATE TABLE groups (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            member_count INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX groups_name_key ON groups(name_key);
        CREATE INDEX groups_created_asc ON groups(created_at, id);
        CREATE INDEX groups_created_desc ON groups(created_at DESC, id);

        CREATE TABLE memberships (
            group_seq INTEGER NOT NULL REFERENCES groups(seq) ON DELETE CASCADE,
            user_seq INTEGER NOT NULL REFERENCES users(seq) ON DELETE CASCADE,
            PRIMARY KEY (group_seq, user_seq)
        ) WITHOUT ROWID;
        -- A user's groups, and the cascade when a user is deleted.
        CREATE INDEX memberships_by_user ON memberships(user_seq, group_seq);

        CREATE TRIGGER memberships_count_insert AFTER INSERT ON memberships BEGIN
            UPDATE groups SET member_count = member_count + 1 WHERE seq = new.group_seq;
        END;
        CREATE TRIGGER memberships_count_delete AFTER DELETE ON memberships BEGIN
            UPDATE groups SET member_count = member_count - 1 WHERE seq = old.group_seq;
        END;

        -- Users stored before groups existed: their JSON gains `"groups":[]` before its closing
        -- brace, as `UserJSON` now writes it (no one is in a group yet). The first answers kept
        -- for idempotency keys hold a user too, before the envelope's `},"error":null}` (which
        -- cannot occur inside a JSON string, where every quote is escaped).
        UPDATE users SET json = substr(json, 1, length(json) - 1) || ',"groups":[]}';
        UPDATE idempotency_keys
            SET response = substr(response, 1, length(response) - 15) || ',"groups":[]},"error":null}'
            WHERE substr(response, -15) = '},"error":null}';
        """

    // SCIM (RFC 7643) on the same rows. `user_name` is SCIM's userName, NULL for users made
    // through the Roster API, whose userName is their email; `user_name_key` is its folded form
    // (`SortKey`). One unique index over the folded userName-or-email keeps userNames unique
    // ignoring case, and serves `userName eq` and `sw` filters and the userName sort.
    // `scim` is the SCIM document as last written over SCIM (every attribute but id, meta,
    // schemas, userName and groups, members in the order sent), NULL for a user never written
    // over SCIM; Roster's own columns stay the truth for name, email, role and status, and a
    // Roster API edit updates the document to match (`DirectoryRows.followSCIMDocument`). Groups keep theirs
    // (externalId and anything else beyond displayName and members) the same way.
    // `revision` counts a resource's changes (memberships included): its weak ETag, `W/"n"`.
    private static let v4 = """
        ALTER TABLE users ADD COLUMN user_name TEXT;
        ALTER TABLE users ADD COLUMN user_name_key TEXT;
        ALTER TABLE users ADD COLUMN scim TEXT;
        ALTER TABLE users ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
        CREATE UNIQUE INDEX users_user_name ON users(coalesce(user_name_key, email_key));
        -- A userName range with `active` (as `SCIMUserColumns` spells it) answered from the index
        -- alone: `userName sw "a" and active eq true` over 100,000 users counted 9,560 matches
        -- in 35 ms through table rows, 2 ms through this.
        CREATE INDEX users_user_name_active ON users(
            coalesce(user_name_key, email_key),
            CASE WHEN scim IS NULL THEN status = 'active' ELSE json_extract(scim, '$.active') END);
        ALTER TABLE groups ADD COLUMN scim TEXT;
        ALTER TABLE groups ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
        """

    // The total of a search too short for the trigram index, without reading every user: per
    // one- or two-character gram of the folded keys and per (role, status), how many users have
    // it (`ShortGrams`; `short_grams` is registered on every connection the store opens).
    // Rows that fall to 0 stay: a later user with that gram reuses them.
    private static let v5 = """
        CREATE TABLE users_short_count (
            gram TEXT NOT NULL,
            role TEXT NOT NULL,
            status TEXT NOT NULL,
            n INTEGER NOT NULL,
            PRIMARY KEY (gram, role, status)
        ) WITHOUT ROWID;
        CREATE TRIGGER users_short_insert AFTER INSERT ON users BEGIN
            INSERT INTO users_short_count(gram, role, status, n)
                SELECT value, new.role, new.status, 1 FROM json_each(short_grams(new.name_key, new.email_key)) WHERE true
                ON CONFLICT(gram, role, status) DO UPDATE SET n = n + 1;
        END;
        CREATE TRIGGER users_short_delete AFTER DELETE ON users BEGIN
            UPDATE users_short_count SET n = n - 1
                WHERE role = old.role AND status = old.status
                  AND gram IN (SELECT value FROM json_each(short_grams(old.name_key, old.email_key)));
        END;
        CREATE TRIGGER users_short_update AFTER UPDATE OF name_key, email_key, role, status ON users BEGIN
            UPDATE users_short_count SET n = n - 1
                WHERE role = old.role AND status = old.status
                  AND gram IN (SELECT value FROM json_each(short_grams(old.name_key, old.email_key)));
            INSERT INTO users_short_count(gram, role, status, n)
                SELECT value, new.role, new.status, 1 FROM json_each(short_grams(new.name_key, new.email_key)) WHERE true
                ON CONFLICT(gram, role, status) DO UPDATE SET n = n + 1;
        END;
        INSERT INTO users_short_count(gram, role, status, n)
            SELECT grams.value, users.role, users.status, count(*)
            FROM users, json_each(short_grams(users.name_key, users.email_key)) AS grams
            GROUP BY grams.value, users.role, users.status;
        """

    // What identity providers filter on, indexed (`SCIMUserColumns`): before this, `emails.value
    // eq` read every user's document (5.9 s at a million users), `externalId eq` and
    // `meta.lastModified gt` every row (251 and 164 ms).
    // `user_emails` holds each entry of a SCIM document's `emails` as `SCIMFilterSQL` reads it
    // from the document (the very same expressions, so answers cannot differ), with its
    // value and type folded; triggers keep it on every write of `scim`, whichever path writes
    // it. Users never written over SCIM have no rows here: their one email is `users.email`,
    // served by its unique key and `users_search`. `user_emails_search` is its trigram index,
    // for `co` and `ew`. externalId (only documents have one) gets a partial index, the folded
    // displayName an index on the filter's own expression, and `updated_at` one of its own.
    private static let v6 = """
        CREATE TABLE user_emails (
            seq INTEGER PRIMARY KEY,
            user_seq INTEGER NOT NULL,
            position INTEGER NOT NULL,
            value, value_key, display, type, type_key, is_primary
        );
        CREATE INDEX user_emails_user ON user_emails(user_seq);
        CREATE INDEX user_emails_value ON user_emails(value_key);
        CREATE VIRTUAL TABLE user_emails_search USING fts5(
            value_key, content = 'user_emails', content_rowid = 'seq', tokenize = 'trigram case_sensitive 1'
        );
        CREATE TRIGGER user_emails_search_insert AFTER INSERT ON user_emails BEGIN
            INSERT INTO user_emails_search(rowid, value_key) VALUES (new.seq, new.value_key);
        END;
        CREATE TRIGGER user_emails_search_delete AFTER DELETE ON user_emails BEGIN
            INSERT INTO user_emails_search(user_emails_search, rowid, value_key) VALUES ('delete', old.seq, old.value_key);
        END;
        CREATE TRIGGER user_emails_insert AFTER INSERT ON users WHEN new.scim IS NOT NULL BEGIN
            \(emailRows(of: "new"));
        END;
        CREATE TRIGGER user_emails_update AFTER UPDATE OF scim ON users BEGIN
            DELETE FROM user_emails WHERE user_seq = old.seq;
            \(emailRows(of: "new"));
        END;
        CREATE TRIGGER user_emails_delete AFTER DELETE ON users BEGIN
            DELETE FROM user_emails WHERE user_seq = old.seq;
        END;
        \(emailRows(of: "users"));
        CREATE INDEX users_external_id ON users(\(SCIMUserColumns.indexDefinition(SCIMUserColumns.externalID(SQLiteSCIMDialect()))))
            WHERE scim IS NOT NULL;
        CREATE INDEX users_display_name ON users(\(SCIMUserColumns.indexDefinition(SCIMUserColumns.displayNameKey(SQLiteSCIMDialect()))));
        CREATE INDEX users_updated ON users(updated_at);
        """

    /// The `user_emails` rows of `row`'s document (`new` in a trigger, or `users` for all).
    private static func emailRows(of row: String) -> String {
        let entry = { (name: String) in "json_extract(e.value, '$.\(name)')" }
        return """
            INSERT INTO user_emails(user_seq, position, value, value_key, display, type, type_key, is_primary)
                SELECT \(row).seq, e.key, \(entry("value")), roster_fold(\(entry("value"))), \(entry("display")),
                       \(entry("type")), roster_fold(\(entry("type"))), \(entry("primary"))
                FROM \(row == "users" ? "users, " : "")json_each(json_extract(\(row).scim, '$.emails')) AS e
            """
    }

    // Named tokens (`TokenRecord`): only the SHA-256 of each secret, which is shown once. A
    // revoked token keeps its row and name, so the log's names stay unambiguous.
    private static let v7 = """
        CREATE TABLE api_tokens (
            name TEXT PRIMARY KEY,
            secret_hash TEXT NOT NULL UNIQUE,
            scopes TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER,
            revoked_at INTEGER,
            last_used_at INTEGER
        );
        """

    // The audit log (`AuditEntry`): one row per change, written in the change's transaction.
    // `changes` is a JSON array of {field, before, after}. Append-only: an UPDATE is refused;
    // only the retention setting deletes, by age (`AuditLog.pruneAudit`).
    private static let v8 = """
        CREATE TABLE audit_log (
            seq INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,
            token TEXT NOT NULL,
            client TEXT NOT NULL,
            request_id TEXT NOT NULL,
            via TEXT NOT NULL,
            resource TEXT NOT NULL,
            resource_id TEXT NOT NULL,
            action TEXT NOT NULL,
            changes TEXT NOT NULL
        );
        CREATE INDEX audit_log_at ON audit_log(at);
        CREATE INDEX audit_log_resource ON audit_log(resource, resource_id, seq);
        CREATE INDEX audit_log_token ON audit_log(token, seq);
        CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log BEGIN
            SELECT RAISE(ABORT, 'the audit log is append-only');
        END;
        """
}
