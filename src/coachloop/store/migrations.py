"""The SQLite schema as named, append-only migrations.

Rules: never edit or reorder an entry once released; add a new (name, sql) at the end.
Each migration runs once, inside the transaction that records its name in `migrations`.
A database that lists a migration this code does not know was written by a newer
coachloop, and is refused rather than guessed at.
"""

from __future__ import annotations

MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "0001_sessions_events_outbox",
        """
        CREATE TABLE sessions (
            session_id   TEXT PRIMARY KEY,
            project      TEXT NOT NULL DEFAULT '',
            agent        TEXT NOT NULL DEFAULT '',
            status       TEXT NOT NULL,
            continues    INTEGER NOT NULL DEFAULT 0,
            last_verdict TEXT,
            created_at   REAL NOT NULL,
            updated_at   REAL NOT NULL,
            state        TEXT NOT NULL
        );
        CREATE INDEX sessions_project ON sessions (project, updated_at);
        CREATE TABLE events (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id  TEXT NOT NULL,
            kind        TEXT NOT NULL,
            ts          REAL NOT NULL,
            recorded_at REAL NOT NULL,
            job_id      TEXT,
            decision    TEXT,
            verdict_type TEXT,
            source      TEXT NOT NULL DEFAULT '',
            why         TEXT NOT NULL DEFAULT '',
            data        TEXT NOT NULL
        );
        CREATE INDEX events_session ON events (session_id, id);
        CREATE TABLE outbox (
            id         INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL,
            event_id   INTEGER NOT NULL,
            kind       TEXT NOT NULL,
            text       TEXT NOT NULL,
            created_at REAL NOT NULL,
            sent_at    REAL
        );
        CREATE INDEX outbox_pending ON outbox (sent_at, id);
        """,
    ),
    (
        "0002_meta",
        """
        CREATE TABLE meta (
            name  TEXT PRIMARY KEY,
            value REAL NOT NULL
        );
        """,
    ),
    (
        "0003_dashboard_indexes",
        """
        CREATE INDEX IF NOT EXISTS sessions_updated ON sessions (updated_at);
        CREATE INDEX IF NOT EXISTS events_kind_ts ON events (kind, ts);
        CREATE INDEX IF NOT EXISTS outbox_session ON outbox (session_id, event_id);
        """,
    ),
    (
        "0004_home_merged_stores",
        """
        CREATE TABLE merged_stores (
            source    TEXT PRIMARY KEY,
            project   TEXT NOT NULL,
            merged_at REAL NOT NULL,
            sessions  INTEGER NOT NULL,
            events    INTEGER NOT NULL,
            outbox    INTEGER NOT NULL
        );
        """,
    ),
    (
        "0006_lifecycle_activity",
        """
        CREATE INDEX IF NOT EXISTS sessions_activity ON sessions (updated_at, session_id);
        CREATE INDEX IF NOT EXISTS sessions_project_activity
            ON sessions (project, updated_at, session_id);
        CREATE INDEX IF NOT EXISTS outbox_sent ON outbox (sent_at)
        """,
    ),
    (
        "0007_lifecycle_records",
        """
        CREATE TABLE lifecycle (
            id         INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL,
            event_id   INTEGER NOT NULL,
            label      TEXT NOT NULL,
            saved_at   REAL NOT NULL,
            body       BLOB NOT NULL
        );
        CREATE INDEX lifecycle_session ON lifecycle (session_id, id);
        CREATE INDEX lifecycle_saved ON lifecycle (saved_at)
        """,
    ),
    (
        "0008_lifecycle_state",
        """
        ALTER TABLE lifecycle ADD COLUMN state TEXT
        """,
    ),
    # Every index a stop writes costs pages in its commit (the WAL and the checkpoints
    # grow with them). These three are the leading columns of wider ones that serve the
    # same queries: sessions_project_activity, sessions_activity, outbox_pending.
    (
        "0009_fewer_indexes_per_stop",
        """
        DROP INDEX IF EXISTS sessions_project;
        DROP INDEX IF EXISTS sessions_updated;
        DROP INDEX IF EXISTS outbox_sent
        """,
    ),
    # A stop's lifecycle record lives in the stop's own events row (written by the same
    # INSERT): no row of its own, no sequence update, no second index on the session.
    # Retention clears these columns, by the partial index on the time it was saved.
    # Records of other changes, and stops' records of older stores, stay in lifecycle.
    (
        "0010_stop_lifecycle_in_events",
        """
        ALTER TABLE events ADD COLUMN life_label TEXT;
        ALTER TABLE events ADD COLUMN life_saved REAL;
        ALTER TABLE events ADD COLUMN life_body BLOB;
        ALTER TABLE events ADD COLUMN life_state TEXT;
        CREATE INDEX events_life_saved ON events (life_saved) WHERE life_body IS NOT NULL
        """,
    ),
    # The partial index of 0010 cost a stop more than the rest of its lifecycle record
    # (19 us of 250). Retention walks the events in id order instead, from a cursor in
    # meta ("life_trimmed": no events row at or below it holds a record); it starts
    # below the first row that holds one, else past the last row (none can: older rows).
    (
        "0011_stop_lifecycle_trimmed_in_order",
        """
        INSERT OR IGNORE INTO meta (name, value) SELECT 'life_trimmed',
            coalesce((SELECT min(id) - 1 FROM events WHERE life_body IS NOT NULL),
                     (SELECT max(id) FROM events), 0);
        DROP INDEX IF EXISTS events_life_saved
        """,
    ),
    # Rows are kept compact from here on: states without their fields at defaults
    # (`core.session.sparse`), a delivery's message as what follows its text
    # (`store.records.event_json`). The schema is the same; the name makes an older
    # coachloop refuse the store rather than read those rows wrong (a delivery's message
    # empty, a running session's status missing on its dashboard).
    ("0012_compact_rows", "SELECT 1"),
    # Forgetting a session deletes its row at once (a short transaction) and records
    # here the last ids its other rows can have; maintenance purges those rows in
    # bounded batches (a session of 10,000 events held the write lock for seconds).
    # Rows past these ids belong to a session of the same id started since.
    (
        "0013_forgotten_sessions",
        """
        CREATE TABLE forgotten (
            session_id  TEXT PRIMARY KEY,
            events_upto INTEGER NOT NULL,
            life_upto   INTEGER NOT NULL,
            outbox_upto INTEGER NOT NULL
        )
        """,
    ),
    # A stop's UPDATE of its session row moved the row's entry in two indexes that both
    # lead with the activity order (0006): four of a stop's ~12.5 pages at 100k sessions.
    # One index keeps that order with the project in its entries: the newest-first pages
    # (all projects, or one: filtered on the index, a table row read only when it
    # matches), a project's count and the list of projects read it, never the table.
    (
        "0014_one_activity_index",
        """
        CREATE INDEX IF NOT EXISTS sessions_recent ON sessions (updated_at, session_id, project);
        DROP INDEX IF EXISTS sessions_activity;
        DROP INDEX IF EXISTS sessions_project_activity
        """,
    ),
    # A record's JSON (events.data) leaves out what its row's columns hold (session, kind,
    # times, job, source, decision, why: `records.EVENT_COLUMNS`) and its empty fields:
    # a fifth of a stop's row. Readers take the columns beside it (`records.event_data`);
    # rows written before read as they are. The name makes an older coachloop refuse
    # the store rather than read these rows without their columns.
    ("0015_records_beside_columns", "SELECT 1"),
)
