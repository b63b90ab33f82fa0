package dev.ourios.parquet;

import java.util.Set;

/**
 * Which top-level columns get a bloom filter built by {@link ColumnShredder} rather than by parquet-java, and its
 * size in bytes (one size for every such column: they share the expected rows per group and the FPP).
 */
record BloomPlan(Set<String> columns, int bytes) {
    static final BloomPlan NONE = new BloomPlan(Set.of(), 0);

    BloomPlan {
        columns = Set.copyOf(columns);
    }
}
