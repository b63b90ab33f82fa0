package dev.ourios.query;

import dev.ourios.parquet.read.LogFileReader;

/** Mutable tallies of one query run, or of one scan thread's share of it (confined to one thread). */
final class ScanCounters {
    long partitions;
    long files;
    long rowGroupsTotal;
    long rowGroupsScanned;
    long rowGroupsIndexSkipped;
    long bytesRead;
    long rows;

    /** A file whose reader decided the query: its row groups and bytes. */
    void addFile(LogFileReader r) {
        files++;
        rowGroupsTotal += r.rowGroupsTotal();
        rowGroupsScanned += r.rowGroupsKept();
        rowGroupsIndexSkipped += r.rowGroupsIndexSkipped();
        bytesRead += r.bytesRead();
    }

    /** A reader that only adds bytes: abandoned for a re-open, or a partner sharing a counted file's groups. */
    void addBytes(LogFileReader r) {
        bytesRead += r.bytesRead();
    }

    /** Another thread's tallies. */
    void add(ScanCounters other) {
        partitions += other.partitions;
        files += other.files;
        rowGroupsTotal += other.rowGroupsTotal;
        rowGroupsScanned += other.rowGroupsScanned;
        rowGroupsIndexSkipped += other.rowGroupsIndexSkipped;
        bytesRead += other.bytesRead;
        rows += other.rows;
    }

    QueryStats stats(long elapsedMs) {
        return new QueryStats(partitions, files, rowGroupsTotal, rowGroupsScanned, rowGroupsTotal - rowGroupsScanned,
                bytesRead, rows, elapsedMs, rowGroupsIndexSkipped);
    }
}
