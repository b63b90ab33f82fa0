package dev.ourios.chaos;

import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;

/**
 * The identity of a row: the compactor's own order-independent checksum over the source columns of that one row,
 * so a row keeps its identity through compaction (derived columns are recomputed, source columns copied exactly).
 */
final class RowIdentity {
    private RowIdentity() {
    }

    static String of(LogRecord r) {
        RowChecksum c = new RowChecksum();
        c.add(r);
        return c.value();
    }
}
