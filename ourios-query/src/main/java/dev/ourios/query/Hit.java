package dev.ourios.query;

import dev.ourios.core.LogRecord;
import java.util.Comparator;

/**
 * A matching row with its position: the order key is (effective time, file ordinal in sorted key order, row
 * ordinal in the file), so ties in time still come out in one deterministic order.
 */
record Hit(long time, int file, long row, LogRecord record) {
    static final Comparator<Hit> OLDEST_FIRST = Comparator.comparingLong(Hit::time).thenComparingInt(Hit::file)
            .thenComparingLong(Hit::row);

    static Comparator<Hit> order(Query.Order order) {
        return order == Query.Order.OLDEST_FIRST ? OLDEST_FIRST : OLDEST_FIRST.reversed();
    }
}
