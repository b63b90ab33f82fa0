package dev.ourios.compaction;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.DayCovers;
import dev.ourios.table.DayPartition;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a tenant-day as a reader of day partitions sees them (docs/spec/storage.md, "Rollup: small hours into
 * day files"): a validly covered hour's rows from the day files (those of its hour only) plus its late files, every
 * other hour from its own live set.
 */
final class DayRows {
    private DayRows() {
    }

    static List<LogRecord> of(ObjectStore store, DayPartition day) throws IOException {
        TableReader reader = new TableReader(store, new ManifestCodec(), 0);
        DayCovers covers = reader.dayCovers(day);
        PartitionSnapshot daySnapshot = reader.daySnapshot(day);
        List<LogRecord> dayRows = new ArrayList<>();
        for (ObjectInfo f : daySnapshot.live()) {
            dayRows.addAll(TestStores.readAll(store, f.key()));
        }
        List<LogRecord> out = new ArrayList<>();
        for (int h = 0; h < 24; h++) {
            PartitionKey hour = day.hour(h);
            PartitionSnapshot s = reader.hourSnapshot(hour, covers);
            if (s.isCovered()) {
                for (LogRecord r : dayRows) {
                    if (hour.rows().holds(r.tenantId(), r.effectiveTime())) {
                        out.add(r);
                    }
                }
            }
            for (ObjectInfo f : s.live()) {
                out.addAll(TestStores.readAll(store, f.key()));
            }
        }
        return out;
    }
}
