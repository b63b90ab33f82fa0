package dev.ourios.query;

/**
 * What a query did (CLI {@code --stats}). Partitions outside the window are never listed and so never counted.
 *
 * @param partitions            hour partitions resolved (a partition re-resolved after a vanished file counts once)
 * @param files                 files opened (footer read), including reads abandoned by a re-resolution
 * @param rowGroupsTotal        row groups in the opened files
 * @param rowGroupsScanned      row groups that survived statistics, dictionary, bloom-filter and token-index pruning
 *                              and were read
 * @param rowGroupsPruned       {@code rowGroupsTotal - rowGroupsScanned}: dropped without reading their data
 * @param bytesRead             bytes fetched from the store for Parquet files (footers, indexes, blooms, pages)
 * @param rows                  rows returned
 * @param elapsedMs             wall time of the whole query
 * @param rowGroupsIndexSkipped of the pruned row groups, those the files' token index ruled out (docs/spec/query.md,
 *                              "The token index")
 */
public record QueryStats(long partitions, long files, long rowGroupsTotal, long rowGroupsScanned,
        long rowGroupsPruned, long bytesRead, long rows, long elapsedMs, long rowGroupsIndexSkipped) {

    /** Stats of a query that skipped no row group by the token index. */
    public QueryStats(long partitions, long files, long rowGroupsTotal, long rowGroupsScanned, long rowGroupsPruned,
            long bytesRead, long rows, long elapsedMs) {
        this(partitions, files, rowGroupsTotal, rowGroupsScanned, rowGroupsPruned, bytesRead, rows, elapsedMs, 0);
    }

    /** The CLI's {@code {"stats":{…}}} line. */
    public String toJson() {
        return "{\"stats\":{\"partitions\":" + partitions + ",\"files\":" + files + ",\"row_groups_total\":"
                + rowGroupsTotal + ",\"row_groups_scanned\":" + rowGroupsScanned + ",\"row_groups_pruned\":"
                + rowGroupsPruned + ",\"row_groups_index_skipped\":" + rowGroupsIndexSkipped + ",\"bytes_read\":"
                + bytesRead + ",\"rows\":" + rows + ",\"elapsed_ms\":" + elapsedMs + "}}";
    }
}
