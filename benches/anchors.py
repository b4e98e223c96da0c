#!/usr/bin/env python3
"""DuckDB's and chDB's side of benches/compare.sh: one work on one form of a dump.

    python3 benches/anchors.py ENGINE WORK FORM PATH [ROOM TEXT]

ENGINE is duckdb or chdb; WORK is select (events of type client.join.failed in room ROOM), search
(events holding TEXT, case-insensitive), group (the count of each (type, error_code, error_name))
or all (every event); FORM is ndjson (PATH is a file, gzip'd when it ends in .gz, or /dev/stdin) or
envelope (PATH is one {"limit":..,"events":[...]} object, as `callscope list --format json`
writes). Prints to stdout what compare.sh compares: the ids of the events for select and search,
one a line; for group, type, code, name and count separated by tabs (a missing value empty); for
all, every event's JSON text, one a line.

Each query is the fastest form found for its engine on the demo generator's dump, reading only the
fields the work needs (2026-11, duckdb 2.0, chdb 4.4 on chdb-core 26.9):
- DuckDB: `read_json(format='newline_delimited', columns=...)` with only the needed columns (about
  half the time of `read_ndjson_objects` with `->>`, whose every line is parsed whole); its
  search reads each line as text (`read_ndjson_objects`, then ILIKE on it), as jq's
  `tostring | test` does; an envelope is `read_json(records=true, columns={events: ...[]})`, one
  row whose list is unnested (it needs a maximum_object_size above the file's, and that is at most
  4 GiB).
- chDB: `file(..., LineAsString)` with `JSONExtract*` of the fields needed (simdjson, only the
  paths asked; on a par with or ahead of `JSONEachRow` with a schema, which reads every key of a
  row to skip the ones it does not know, and ahead of `JSONAsString`); CHDB_READ=each switches to
  JSONEachRow with a schema. The search is `positionCaseInsensitiveUTF8` on the line. An envelope
  is one `JSONAsString` row (its size unlimited: 512 MiB by default) whose events are extracted
  as an array of tuples of only the needed fields (2.4 times as fast as `JSONExtractArrayRaw` and
  an extraction from each raw element).
Both search the event's text, keys included (no key holds the demo's search text), and write their
answer straight to stdout (COPY ... TO '/dev/stdout', INTO OUTFILE '/dev/stdout' APPEND), never
holding it in Python.
"""
import os
import sys

JOIN = "client.join.failed"


def duckdb_str(s):
    return "'" + s.replace("'", "''") + "'"


def duckdb_like(s):
    """A literal ILIKE pattern matching s anywhere, with ESCAPE '\\'."""
    for c in "\\%_":
        s = s.replace(c, "\\" + c)
    return duckdb_str("%" + s + "%") + " ESCAPE '\\'"


def ch_str(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def duckdb_query(work, form, path, room, text):
    src = duckdb_str(path)

    def ndjson(columns):
        return f"read_json({src}, format='newline_delimited', columns={{{columns}}})"

    if form == "envelope":
        if work == "search" or work == "all":
            # Every event as its JSON text.
            events = "JSON[]"
        elif work == "select":
            events = "STRUCT(id VARCHAR, type VARCHAR, data STRUCT(room_id VARCHAR))[]"
        else:
            events = "STRUCT(type VARCHAR, data STRUCT(error_code BIGINT, error_name VARCHAR))[]"
        rows = (
            f"(SELECT unnest(events) AS e FROM read_json({src}, format='auto', records=true, "
            f"maximum_object_size=4294967295, columns={{events: '{events}'}}))"
        )
        if work == "select":
            return (
                f"SELECT e.id FROM {rows} "
                f"WHERE e.type = '{JOIN}' AND e.data.room_id = {duckdb_str(room)}"
            )
        if work == "search":
            return f"SELECT e->>'id' FROM {rows} WHERE e::VARCHAR ILIKE {duckdb_like(text)}"
        if work == "group":
            return (
                "SELECT e.type, e.data.error_code, e.data.error_name, count(*) "
                f"FROM {rows} GROUP BY ALL"
            )
        return f"SELECT e FROM {rows}"
    if work == "select":
        return (
            "SELECT id FROM "
            + ndjson("id: 'VARCHAR', type: 'VARCHAR', data: 'STRUCT(room_id VARCHAR)'")
            + f" WHERE type = '{JOIN}' AND data.room_id = {duckdb_str(room)}"
        )
    if work == "search":
        return (
            f"SELECT json->>'id' FROM read_ndjson_objects({src}) "
            f"WHERE json::VARCHAR ILIKE {duckdb_like(text)}"
        )
    if work == "group":
        return (
            "SELECT type, data.error_code, data.error_name, count(*) FROM "
            + ndjson("type: 'VARCHAR', data: 'STRUCT(error_code BIGINT, error_name VARCHAR)'")
            + " GROUP BY ALL"
        )
    return f"SELECT json FROM read_ndjson_objects({src})"


def chdb_query(work, form, path, room, text):
    src = ch_str(path)
    room, text = ch_str(room), ch_str(text)
    if form == "envelope":
        if work == "search" or work == "all":
            # Every event's raw text.
            rows = (
                f"(SELECT arrayJoin(JSONExtractArrayRaw(json, 'events')) AS e "
                f"FROM file({src}, JSONAsString))"
            )
            if work == "all":
                return f"SELECT e FROM {rows}"
            return (
                f"SELECT JSONExtractString(e, 'id') FROM {rows} "
                f"WHERE positionCaseInsensitiveUTF8(e, {text}) > 0"
            )
        if work == "select":
            tuple_ = "Tuple(id String, type String, data Tuple(room_id String))"
        else:
            tuple_ = (
                "Tuple(type String, "
                "data Tuple(error_code Nullable(Int64), error_name Nullable(String)))"
            )
        rows = (
            f"(SELECT arrayJoin(JSONExtract(json, 'events', 'Array({tuple_})')) AS e "
            f"FROM file({src}, JSONAsString))"
        )
        if work == "select":
            return (
                f"SELECT e.id FROM {rows} "
                f"WHERE e.type = '{JOIN}' AND e.data.room_id = {room}"
            )
        return (
            "SELECT e.type, e.data.error_code, e.data.error_name, count() "
            f"FROM {rows} GROUP BY ALL"
        )
    lines = f"file({src}, LineAsString)"
    if work == "search":
        return (
            f"SELECT JSONExtractString(line, 'id') FROM {lines} "
            f"WHERE positionCaseInsensitiveUTF8(line, {text}) > 0"
        )
    if work == "all":
        return f"SELECT line FROM {lines}"
    if os.environ.get("CHDB_READ") == "each":
        if work == "select":
            schema = "id String, type String, data Tuple(room_id String)"
            return (
                f"SELECT id FROM file({src}, JSONEachRow, '{schema}') "
                f"WHERE type = '{JOIN}' AND data.room_id = {room}"
            )
        schema = "type String, data Tuple(error_code Nullable(Int64), error_name Nullable(String))"
        return (
            "SELECT type, data.error_code, data.error_name, count() "
            f"FROM file({src}, JSONEachRow, '{schema}') GROUP BY ALL"
        )
    if work == "select":
        return (
            f"SELECT JSONExtractString(line, 'id') FROM {lines} "
            f"WHERE JSONExtractString(line, 'type') = '{JOIN}' "
            f"AND JSONExtractString(line, 'data', 'room_id') = {room}"
        )
    return (
        "SELECT JSONExtractString(line, 'type'), "
        "JSONExtract(line, 'data', 'error_code', 'Nullable(Int64)'), "
        "JSONExtract(line, 'data', 'error_name', 'Nullable(String)'), count() "
        f"FROM {lines} GROUP BY ALL"
    )


def main():
    if len(sys.argv) not in (5, 7):
        sys.exit(__doc__)
    engine, work, form, path = sys.argv[1:5]
    room, text = sys.argv[5:7] if len(sys.argv) == 7 else ("", "")
    if work not in ("select", "search", "group", "all") or form not in ("ndjson", "envelope"):
        sys.exit(__doc__)
    if engine == "duckdb":
        import duckdb

        sql = duckdb_query(work, form, path, room, text)
        # Tab-separated, nothing quoted: no id, type or name holds a tab, and for `all` the one
        # column is written as it is (a delimiter that JSON text never holds raw).
        delimiter = "\\x01" if work == "all" else "\\t"
        duckdb.connect().execute(
            f"COPY ({sql}) TO '/dev/stdout' "
            f"(FORMAT csv, HEADER false, QUOTE '', ESCAPE '', DELIMITER e'{delimiter}')"
        )
    elif engine == "chdb":
        import chdb

        sql = chdb_query(work, form, path, room, text)
        # A missing value is written empty, as DuckDB and jq's @tsv write it, rather than \N.
        settings = ["format_tsv_null_representation = ''"]
        if form == "envelope":
            # The envelope is one JSON value: no limit on its size (512 MiB by default), and no
            # splitting it for parallel parsing.
            settings += [
                "input_format_json_max_object_size = 0",
                "input_format_parallel_parsing = 0",
            ]
        chdb.query(
            f"{sql} INTO OUTFILE '/dev/stdout' APPEND FORMAT TSVRaw SETTINGS {', '.join(settings)}"
        )
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
