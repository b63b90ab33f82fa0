package dev.ourios.query;

import dev.ourios.parquet.LogFileReader;

/** Mutable tallies of one query run (confined to the thread running it). */
final class ScanCounters {
    long partitions;
    long files;
    long rowGroupsTotal;
    long rowGroupsScanned;
    long bytesRead;
    long rows;

    /** A file whose reader decided the query: its row groups and bytes. */
    void addFile(LogFileReader r) {
        files++;
        rowGroupsTotal += r.rowGroupsTotal();
        rowGroupsScanned += r.rowGroupsKept();
        bytesRead += r.bytesRead();
    }

    /** A reader abandoned for a re-open: only its bytes were spent. */
    void addAbandoned(LogFileReader r) {
        bytesRead += r.bytesRead();
    }

    QueryStats stats(long elapsedMs) {
        return new QueryStats(partitions, files, rowGroupsTotal, rowGroupsScanned, rowGroupsTotal - rowGroupsScanned,
                bytesRead, rows, elapsedMs);
    }
}
