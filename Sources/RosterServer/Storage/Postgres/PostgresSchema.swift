import PostgresNIO

/// The PostgreSQL schema, as numbered migrations recorded in `roster_schema_versions`; the
/// same tables as SQLite's `Schema`, in PostgreSQL's dialect. A migration, once released,
/// never changes. Each is a list of statements (the driver sends one statement per query).
enum PostgresSchema {
    struct Migration {
        var version: Int
        var name: String
        var statements: [String]
    }

    /// Any number constant to this app: replicas starting together migrate one at a time.
    static let migrationLock: Int64 = 0x526F_7374_6572

    static let migrations = [
        Migration(version: 1, name: "users, sort keys, trigram search, counts, write generation", statements: v1),
        Migration(version: 2, name: "idempotency keys of creates", statements: v2),
        Migration(version: 3, name: "groups and memberships", statements: v3),
        Migration(version: 4, name: "per-gram counts of one- and two-character searches", statements: v4),
        Migration(version: 5, name: "sort indexes covering the filtered columns", statements: v5),
        Migration(version: 6, name: "SCIM user names, documents and folding", statements: v6),
        Migration(version: 7, name: "narrow user_keys table for trigram search", statements: v7),
        Migration(version: 8, name: "SCIM userName and active as stored columns with one index", statements: v8),
        Migration(version: 9, name: "indexed SCIM emails, externalId, displayName and lastModified", statements: v9),
        Migration(version: 10, name: "named API tokens with scopes", statements: v10),
        Migration(version: 11, name: "the audit log", statements: v11),
    ]

    /// Migrations after which `users` is vacuumed: they rewrite the table, which leaves it with
    /// no visibility map, so index-only scans visit the table for every row until a vacuum
    /// (a SCIM filter's total at a million users: 250 ms before, 16 ms after).
    static let rewritesUsers: Set<Int> = [8]

    static func migrate(_ database: PostgresDatabase, upTo lastVersion: Int = .max) async throws {
        let applied = try await applyMigrations(database, upTo: lastVersion)
        if !applied.isDisjoint(with: rewritesUsers) {
            // VACUUM cannot run inside the migrations' transaction.
            try await database.maintain("VACUUM (ANALYZE) users")
        }
    }

    /// Applies the missing migrations in one transaction; returns their versions.
    private static func applyMigrations(_ database: PostgresDatabase, upTo lastVersion: Int) async throws -> Set<Int> {
        try await database.transaction(deadline: PostgresDatabase.maintenanceDeadline) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: database.logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS roster_schema_versions (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger: database.logger)
            var applied = Set<Int>()
            for try await version in try await connection.query(
                "SELECT version FROM roster_schema_versions", logger: database.logger
            ).decode(Int.self) {
                applied.insert(version)
            }
            var newlyApplied = Set<Int>()
            for migration in migrations where !applied.contains(migration.version) && migration.version <= lastVersion {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: database.logger)
                }
                try await connection.query(
                    "INSERT INTO roster_schema_versions (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: database.logger)
                newlyApplied.insert(migration.version)
            }
            return newlyApplied
        }
    }

    /// Every index of `users` and of `user_keys` but their primary keys: dropped while `--seed`
    /// copies rows in and built once after, which is several times faster than keeping them up
    /// row by row (a duplicate then fails the unique index's build, and so the whole seed,
    /// instead of one insert).
    static let userIndexes: [(name: String, definition: String)] = [("users_id", "UNIQUE INDEX users_id ON users (id)")]
        + coveringIndexes + [keysSearchIndex, userNameIndex, scimUserNameActiveIndex] + scimFilterIndexes

    /// As of migration 9: what identity providers filter on (`SCIMUserColumns`), each on the
    /// filter's own expression: externalId (only documents have one, so only their rows),
    /// the folded displayName, lastModified.
    static let scimFilterIndexes: [(name: String, definition: String)] = [
        ("users_external_id", """
            INDEX users_external_id ON users ((\(SCIMUserColumns.indexDefinition(SCIMUserColumns.externalID(PostgresSCIMDialect())))))
            WHERE scim_json IS NOT NULL
            """),
        ("users_display_name",
         "INDEX users_display_name ON users ((\(SCIMUserColumns.indexDefinition(SCIMUserColumns.displayNameKey(PostgresSCIMDialect())))))"),
        ("users_updated", "INDEX users_updated ON users (updated_at)"),
    ]

    /// Substring search as of migration 7: trigrams of both folded keys of `user_keys`, in one
    /// text (`PostgresListQuery.keysMatch`).
    static let keysSearchIndex = (
        name: "user_keys_search",
        definition: "INDEX user_keys_search ON user_keys USING gin ((name_key || E'\\n' || email_key) gin_trgm_ops)"
    )

    /// As of migration 6: userNames unique ignoring case, a user's email standing for a
    /// userName they do not have. It serves `userName eq` and `sw` filters and the userName sort.
    static let userNameIndex: (name: String, definition: String) = ("users_user_name", "UNIQUE INDEX users_user_name ON users ((coalesce(user_name_key, email_key)))")

    /// As of migration 8: SCIM's userName and active filters, their totals from the index alone.
    static let scimUserNameActiveIndex = (
        name: "users_scim_user_name_active",
        definition: "INDEX users_scim_user_name_active ON users (scim_user_name_key, scim_active)"
    )

    /// The sort indexes as of migration 5: each also carries every column a list filters on
    /// but the group, so a page skips rows and tests a short search in an index-only scan
    /// instead of fetching each row from the table (`PostgresListQuery`).
    static let coveringIndexes: [(name: String, definition: String)] = [
        ("users_email_key", "UNIQUE INDEX users_email_key ON users (email_key) INCLUDE (name_key, role, status)"),
        ("users_name_asc", "INDEX users_name_asc ON users (name_key, id) INCLUDE (email_key, role, status)"),
        ("users_name_desc", "INDEX users_name_desc ON users (name_key DESC, id) INCLUDE (email_key, role, status)"),
        ("users_created_asc", "INDEX users_created_asc ON users (created_at, id) INCLUDE (name_key, email_key, role, status)"),
        ("users_created_desc", "INDEX users_created_desc ON users (created_at DESC, id) INCLUDE (name_key, email_key, role, status)"),
    ]

    /// The indexes migration 1 created, as released.
    private static let v1Indexes: [(name: String, definition: String)] = [
        ("users_id", "UNIQUE INDEX users_id ON users (id)"),
        // The unique index, not application code, decides which of two racing creates wins.
        ("users_email_key", "UNIQUE INDEX users_email_key ON users (email_key)"),
        // One per order the list offers; descending sorts still break ties by ascending id.
        ("users_name_asc", "INDEX users_name_asc ON users (name_key, id)"),
        ("users_name_desc", "INDEX users_name_desc ON users (name_key DESC, id)"),
        ("users_created_asc", "INDEX users_created_asc ON users (created_at, id)"),
        ("users_created_desc", "INDEX users_created_desc ON users (created_at DESC, id)"),
        // Substring search: trigrams of the (already folded) keys, for LIKE '%…%'.
        ("users_search", "INDEX users_search ON users USING gin (name_key gin_trgm_ops, email_key gin_trgm_ops)"),
    ]

    // Columns as in SQLite's v1. Keys and ids are COLLATE "C": byte order of their UTF-8, the
    // order SQLite's BINARY and the client's `String` sort by, whatever the database's locale.
    // `roster_generation` is the one row every write transaction bumps first: its row lock
    // makes writers take turns across every replica, and its value is the list caches' generation.
    // `users_count` holds counts by (role, status), kept by statement triggers (one update per
    // statement, so a COPY of a million rows costs one), for the total of an unsearched list.
    private static let v1: [String] = [
        "CREATE EXTENSION IF NOT EXISTS pg_trgm",
        """
        CREATE TABLE roster_generation (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            value bigint NOT NULL
        )
        """,
        "INSERT INTO roster_generation (value) VALUES (1)",
        """
        CREATE TABLE users (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id text COLLATE "C" NOT NULL,
            name text NOT NULL,
            email text NOT NULL,
            role text NOT NULL,
            status text NOT NULL,
            created_at bigint NOT NULL,
            updated_at bigint NOT NULL,
            name_key text COLLATE "C" NOT NULL,
            email_key text COLLATE "C" NOT NULL,
            json text NOT NULL,
            revision bigint NOT NULL DEFAULT 1
        )
        """,
    ] + v1Indexes.map { "CREATE \($0.definition)" } + [
        """
        CREATE TABLE users_count (
            role text NOT NULL,
            status text NOT NULL,
            n bigint NOT NULL,
            PRIMARY KEY (role, status)
        )
        """,
        """
        CREATE FUNCTION users_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO users_count (role, status, n)
                SELECT role, status, count(*) FROM added GROUP BY role, status
                ON CONFLICT (role, status) DO UPDATE SET n = users_count.n + excluded.n;
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION users_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE users_count SET n = users_count.n - gone.n
                FROM (SELECT role, status, count(*) AS n FROM removed GROUP BY role, status) AS gone
                WHERE users_count.role = gone.role AND users_count.status = gone.status;
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION users_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE users_count SET n = users_count.n - gone.n
                FROM (SELECT role, status, count(*) AS n FROM removed GROUP BY role, status) AS gone
                WHERE users_count.role = gone.role AND users_count.status = gone.status;
            INSERT INTO users_count (role, status, n)
                SELECT role, status, count(*) FROM added GROUP BY role, status
                ON CONFLICT (role, status) DO UPDATE SET n = users_count.n + excluded.n;
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER users_count_insert AFTER INSERT ON users
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION users_count_add()
        """,
        """
        CREATE TRIGGER users_count_delete AFTER DELETE ON users
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION users_count_remove()
        """,
        """
        CREATE TRIGGER users_count_update AFTER UPDATE ON users
            REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION users_count_change()
        """,
    ]

    // As SQLite's v2: one row per key a successful create was sent with, written in the
    // create's own transaction.
    private static let v2: [String] = [
        """
        CREATE TABLE idempotency_keys (
            key text COLLATE "C" PRIMARY KEY,
            request_body bytea NOT NULL,
            user_id text NOT NULL,
            response text NOT NULL,
            created_at bigint NOT NULL
        )
        """,
        "CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)",
    ]

    // As SQLite's v3: names unique by their folded key, memberships going with their group or
    // user (ON DELETE CASCADE, in the deleting transaction), `member_count` kept by triggers.
    private static let v3: [String] = [
        """
        CREATE TABLE groups (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id text COLLATE "C" NOT NULL,
            name text NOT NULL,
            name_key text COLLATE "C" NOT NULL,
            member_count bigint NOT NULL DEFAULT 0,
            created_at bigint NOT NULL,
            updated_at bigint NOT NULL,
            revision bigint NOT NULL DEFAULT 1
        )
        """,
        "CREATE UNIQUE INDEX groups_id ON groups (id)",
        "CREATE UNIQUE INDEX groups_name_key ON groups (name_key)",
        "CREATE INDEX groups_created_asc ON groups (created_at, id)",
        "CREATE INDEX groups_created_desc ON groups (created_at DESC, id)",
        """
        CREATE TABLE memberships (
            group_seq bigint NOT NULL REFERENCES groups (seq) ON DELETE CASCADE,
            user_seq bigint NOT NULL REFERENCES users (seq) ON DELETE CASCADE,
            PRIMARY KEY (group_seq, user_seq)
        )
        """,
        "CREATE INDEX memberships_by_user ON memberships (user_seq, group_seq)",
        """
        CREATE FUNCTION memberships_count() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'INSERT' THEN
                UPDATE groups SET member_count = member_count + 1 WHERE seq = NEW.group_seq;
            ELSE
                UPDATE groups SET member_count = member_count - 1 WHERE seq = OLD.group_seq;
            END IF;
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER memberships_count AFTER INSERT OR DELETE ON memberships
            FOR EACH ROW EXECUTE FUNCTION memberships_count()
        """,
    ]

    /// The short-search counts' insert trigger, off while `--seed` copies rows in and counts
    /// them itself (`ShortGramCounts.addGrams`).
    static let shortCountInsertTrigger = "users_short_insert"

    // The totals of searches too short for trigrams (one or two characters), as SQLite's v5:
    // per gram and (role, status), how many users have it in either folded key. Statement
    // triggers add the grams of the rows a statement inserted and take away those it removed
    // (an update: the difference, so a change of the stored JSON alone writes nothing).
    private static let v4: [String] = [
        """
        CREATE FUNCTION users_short_grams(name_key text, email_key text) RETURNS SETOF text
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
            SELECT DISTINCT substr(key, position, width) COLLATE "C"
            FROM unnest(ARRAY[name_key, email_key]) AS key,
                 generate_series(1, length(key)) AS position,
                 (VALUES (1), (2)) AS widths (width)
            WHERE position + width - 1 <= length(key)
        $$
        """,
        """
        CREATE TABLE users_short_count (
            gram text COLLATE "C" NOT NULL,
            role text NOT NULL,
            status text NOT NULL,
            n bigint NOT NULL,
            PRIMARY KEY (gram, role, status)
        )
        """,
        """
        CREATE FUNCTION users_short_add() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO users_short_count (gram, role, status, n)
                SELECT gram, role, status, count(*)
                FROM added, users_short_grams(added.name_key, added.email_key) AS gram
                GROUP BY gram, role, status
                ON CONFLICT (gram, role, status) DO UPDATE SET n = users_short_count.n + excluded.n;
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION users_short_remove() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE users_short_count SET n = users_short_count.n - gone.n
                FROM (SELECT gram, role, status, count(*) AS n
                      FROM removed, users_short_grams(removed.name_key, removed.email_key) AS gram
                      GROUP BY gram, role, status) AS gone
                WHERE users_short_count.gram = gone.gram AND users_short_count.role = gone.role
                  AND users_short_count.status = gone.status;
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION users_short_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO users_short_count (gram, role, status, n)
                SELECT gram, role, status, sum(delta)
                FROM (SELECT gram, role, status, -1 AS delta
                      FROM removed, users_short_grams(removed.name_key, removed.email_key) AS gram
                      UNION ALL
                      SELECT gram, role, status, 1
                      FROM added, users_short_grams(added.name_key, added.email_key) AS gram) AS changes
                GROUP BY gram, role, status
                HAVING sum(delta) <> 0
                ON CONFLICT (gram, role, status) DO UPDATE SET n = users_short_count.n + excluded.n;
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER \(shortCountInsertTrigger) AFTER INSERT ON users
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION users_short_add()
        """,
        """
        CREATE TRIGGER users_short_delete AFTER DELETE ON users
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION users_short_remove()
        """,
        """
        CREATE TRIGGER users_short_update AFTER UPDATE ON users
            REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION users_short_change()
        """,
        // The users a database already has.
        """
        INSERT INTO users_short_count (gram, role, status, n)
            SELECT gram, role, status, count(*)
            FROM users, users_short_grams(users.name_key, users.email_key) AS gram
            GROUP BY gram, role, status
        """,
    ]

    // As `coveringIndexes` says; the unique email index is replaced in the same transaction.
    private static let v5: [String] = ["SET LOCAL maintenance_work_mem = '512MB'"]
        + coveringIndexes.flatMap { ["DROP INDEX \($0.name)", "CREATE \($0.definition)"] }

    // SCIM (RFC 7643) on the same rows, as SQLite's v4 (revisions are there since v1 and v3).
    // `user_name` is SCIM's userName, NULL for users made through the Roster API (their
    // userName is their email), `user_name_key` its folded form. `scim` is the document as last
    // written over SCIM, as text: it is answered as it was written, member order and all;
    // `scim_json` is the same document as jsonb, which filters and sorts read. The store writes
    // both in one statement. Both are NULL for a resource never written over SCIM.
    // `roster_fold` folds document values for case-insensitive filters and sorts as `SortKey`
    // folds the key columns: full Unicode lower case through ICU's root locale, whatever the
    // database's own locale (in "C", lower() folds ASCII alone), then NFC. A server built
    // without ICU gets the database collation's lower() instead.
    private static let v6: [String] = [
        "ALTER TABLE users ADD COLUMN user_name text",
        "ALTER TABLE users ADD COLUMN user_name_key text COLLATE \"C\"",
        "ALTER TABLE users ADD COLUMN scim text",
        "ALTER TABLE users ADD COLUMN scim_json jsonb",
        "CREATE \(userNameIndex.definition)",
        "ALTER TABLE groups ADD COLUMN scim text",
        "ALTER TABLE groups ADD COLUMN scim_json jsonb",
        """
        DO $do$
        BEGIN
            IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') THEN
                CREATE FUNCTION roster_fold(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                    AS $$ SELECT normalize(lower($1 COLLATE "und-x-icu"), NFC) $$;
            ELSE
                CREATE FUNCTION roster_fold(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                    AS $$ SELECT normalize(lower($1), NFC) $$;
            END IF;
        END $do$
        """,
    ]

    // A trigram search's hits are rechecked in the table its index points into: in `users`,
    // rows of some 400 bytes (the stored JSON), the 21,193 hits of `ivan` at a million users
    // visit 17,600 of its 52,700 pages (over 100 ms). `user_keys` holds what a search reads:
    // the keys it matches, the columns it sorts and filters by, the `seq` of the row, at a
    // few dozen bytes a row; its own trigram index replaces `users_search`. Statement triggers
    // keep it in every transaction that writes users (an update writes it only when one of its
    // columns changed, not for the stored JSON alone).
    private static let v7: [String] = [
        "SET LOCAL maintenance_work_mem = '512MB'",
        """
        CREATE TABLE user_keys (
            seq bigint PRIMARY KEY,
            id text COLLATE "C" NOT NULL,
            name_key text COLLATE "C" NOT NULL,
            email_key text COLLATE "C" NOT NULL,
            created_at bigint NOT NULL,
            role text NOT NULL,
            status text NOT NULL
        )
        """,
        """
        CREATE FUNCTION user_keys_add() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO user_keys (seq, id, name_key, email_key, created_at, role, status)
                SELECT seq, id, name_key, email_key, created_at, role, status FROM added;
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION user_keys_remove() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM user_keys USING removed WHERE user_keys.seq = removed.seq;
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION user_keys_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE user_keys SET id = added.id, name_key = added.name_key, email_key = added.email_key,
                    created_at = added.created_at, role = added.role, status = added.status
                FROM added
                WHERE user_keys.seq = added.seq
                  AND (user_keys.id, user_keys.name_key, user_keys.email_key, user_keys.created_at, user_keys.role, user_keys.status)
                      IS DISTINCT FROM (added.id, added.name_key, added.email_key, added.created_at, added.role, added.status);
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER user_keys_insert AFTER INSERT ON users
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION user_keys_add()
        """,
        """
        CREATE TRIGGER user_keys_delete AFTER DELETE ON users
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION user_keys_remove()
        """,
        """
        CREATE TRIGGER user_keys_update AFTER UPDATE ON users
            REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION user_keys_change()
        """,
        // The users a database already has.
        "INSERT INTO user_keys (seq, id, name_key, email_key, created_at, role, status) SELECT seq, id, name_key, email_key, created_at, role, status FROM users",
        "CREATE \(keysSearchIndex.definition)",
        "DROP INDEX IF EXISTS users_search",
    ]

    // SCIM's userName key and `active` as stored generated columns, from the expressions the
    // SQLite dialect filters with (`PostgresSCIMDialect`), and one index over both, so a
    // filter's total is an index-only scan. Adding them rewrites `users` once.
    private static let v8: [String] = [
        "SET LOCAL maintenance_work_mem = '512MB'",
        """
        ALTER TABLE users
            ADD COLUMN scim_user_name_key text COLLATE "C" GENERATED ALWAYS AS (\(PostgresSCIMDialect.generatedUserNameKey)) STORED,
            ADD COLUMN scim_active boolean GENERATED ALWAYS AS (\(PostgresSCIMDialect.generatedUserActive)) STORED
        """,
        "CREATE \(scimUserNameActiveIndex.definition)",
    ]

    // `user_emails`: each entry of a SCIM document's `emails`, as `SCIMFilterSQL` reads it from
    // the document (the dialect's own expressions, so answers cannot differ), value and type
    // folded, kept by row triggers on every write of `scim_json` (as SQLite's v6). Users never
    // written over SCIM have no rows: their one email is `users.email`, served by its unique
    // key and `user_keys`' trigram index. Its own trigram index serves `co` and `ew`.
    private static let v9: [String] = [
        "SET LOCAL maintenance_work_mem = '512MB'",
        """
        CREATE TABLE user_emails (
            user_seq bigint NOT NULL REFERENCES users (seq) ON DELETE CASCADE,
            position bigint NOT NULL,
            value text COLLATE "C",
            value_key text COLLATE "C",
            display text COLLATE "C",
            type text COLLATE "C",
            type_key text COLLATE "C",
            is_primary boolean,
            PRIMARY KEY (user_seq, position)
        )
        """,
        "CREATE INDEX user_emails_value ON user_emails (value_key)",
        "CREATE INDEX user_emails_search ON user_emails USING gin (value_key gin_trgm_ops)",
        """
        CREATE FUNCTION user_emails_follow() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'UPDATE' THEN
                DELETE FROM user_emails WHERE user_seq = OLD.seq;
            END IF;
            \(emailRows(select: "NEW.seq", from: "", document: "NEW.scim_json"));
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER user_emails_insert AFTER INSERT ON users
            FOR EACH ROW WHEN (NEW.scim_json IS NOT NULL) EXECUTE FUNCTION user_emails_follow()
        """,
        """
        CREATE TRIGGER user_emails_update AFTER UPDATE OF scim_json ON users
            FOR EACH ROW WHEN (OLD.scim_json IS DISTINCT FROM NEW.scim_json) EXECUTE FUNCTION user_emails_follow()
        """,
        // The documents a database already has.
        emailRows(select: "users.seq", from: "users, ", document: "users.scim_json"),
    ] + scimFilterIndexes.map { "CREATE \($0.definition)" }

    /// The `user_emails` rows of a document.
    private static func emailRows(select seq: String, from: String, document: String) -> String {
        let dialect = PostgresSCIMDialect()
        let emails = dialect.json(in: document, at: ["emails"])
        let value = dialect.value(in: "e.value", at: ["value"], kind: .string)
        let type = dialect.value(in: "e.value", at: ["type"], kind: .string)
        return """
            INSERT INTO user_emails (user_seq, position, value, value_key, display, type, type_key, is_primary)
                SELECT \(seq), e.key, \(value), \(dialect.fold(value)), \(dialect.value(in: "e.value", at: ["display"], kind: .string)),
                       \(type), \(dialect.fold(type)), \(dialect.value(in: "e.value", at: ["primary"], kind: .boolean))
                FROM \(from)\(dialect.entries(of: emails))
            """
    }

    // As SQLite's v7: named tokens, only the SHA-256 of each secret (`TokenRecord`).
    private static let v10: [String] = [
        """
        CREATE TABLE api_tokens (
            name text COLLATE "C" PRIMARY KEY,
            secret_hash text COLLATE "C" NOT NULL UNIQUE,
            scopes text NOT NULL,
            created_at bigint NOT NULL,
            expires_at bigint,
            revoked_at bigint,
            last_used_at bigint
        )
        """,
    ]

    // As SQLite's v8. Every write first takes the generation row, so `seq` order is commit order.
    private static let v11: [String] = [
        """
        CREATE TABLE audit_log (
            seq bigserial PRIMARY KEY,
            at bigint NOT NULL,
            token text COLLATE "C" NOT NULL,
            client text NOT NULL,
            request_id text NOT NULL,
            via text NOT NULL,
            resource text COLLATE "C" NOT NULL,
            resource_id text COLLATE "C" NOT NULL,
            action text COLLATE "C" NOT NULL,
            changes text NOT NULL
        )
        """,
        "CREATE INDEX audit_log_at ON audit_log (at)",
        "CREATE INDEX audit_log_resource ON audit_log (resource, resource_id, seq)",
        "CREATE INDEX audit_log_token ON audit_log (token, seq)",
        """
        CREATE FUNCTION audit_log_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'the audit log is append-only';
        END
        $$
        """,
        "CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_update()",
    ]
}
