package dev.ourios.query;

import dev.ourios.parquet.read.GroupStatistics;

/**
 * A {@link RowVisitor} that can take every row of a row group at once when the group's statistics prove each of them
 * matches the query: an aggregate that needs no more of a row than the statistics say (its bucket, a field whose
 * column holds one value throughout) counts the group from its row count, and none of its rows is decoded.
 */
public interface GroupVisitor extends RowVisitor {
    /**
     * Takes the {@code group.rows()} rows of a row group, every one matching the query, or declines (false): the
     * rows are then handed over one by one as usual. Nothing is visited twice either way.
     */
    boolean visitGroup(MatchingGroup group);

    /**
     * A row group whose every row matches the query.
     *
     * @param rows       the group's rows
     * @param minTime    the smallest effective time (RowTime) of a row of the group
     * @param maxTime    the largest
     * @param statistics what else the group's column statistics prove
     */
    record MatchingGroup(long rows, long minTime, long maxTime, GroupStatistics statistics) {
        /** The string every row of the group holds in the top-level column {@code column}, when proven. */
        public java.util.Optional<String> constantString(String column) {
            return GroupProof.constantString(statistics, column);
        }
    }
}
