package dev.ourios.parquet.write;

import java.util.Map;

/**
 * Which top-level columns get a bloom filter built by {@link ColumnShredder} rather than by parquet-java, each with
 * its size in bytes.
 */
record BloomPlan(Map<String, Integer> bytesByColumn) {
    static final BloomPlan NONE = new BloomPlan(Map.of());

    BloomPlan {
        bytesByColumn = Map.copyOf(bytesByColumn);
    }

    /** The filter size for {@code column}, or 0 when it gets no filter from the shredder. */
    int bytes(String column) {
        return bytesByColumn.getOrDefault(column, 0);
    }
}
