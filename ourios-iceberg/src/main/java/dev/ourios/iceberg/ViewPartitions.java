package dev.ourios.iceberg;

import dev.ourios.core.PartitionKey;
import dev.ourios.table.DayPartition;
import java.util.Collection;
import java.util.Map;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.util.PartitionSet;

/**
 * A store partition as the view's partition value: its tenant and the hour of its directory
 * ({@code identity(tenant_id)} and {@code hour(effective_time_unix_nano)} or {@code identity(effective_hour)},
 * storage.md section 10).
 */
final class ViewPartitions {
    private ViewPartitions() {
    }

    /** The partition value of {@code partition} in {@code spec}. */
    static PartitionData value(PartitionSpec spec, PartitionKey partition) {
        PartitionData values = new PartitionData(spec.partitionType());
        values.set(0, partition.tenantId());
        // identity(effective_hour) holds a timestamptz (microseconds); hour(effective_time) hours since the epoch
        boolean identity = spec.fields().get(1).transform().isIdentity();
        long seconds = partition.hourStart().getEpochSecond();
        values.set(1, identity ? (Object) (seconds * 1_000_000L) : (Object) (int) (seconds / 3600));
        return values;
    }

    /**
     * The partition value of the day partition {@code day} in the day partitions' spec: its tenant and its day
     * ({@code day(effective_time_unix_nano)}, days since the epoch, or {@code identity(effective_day)}, the day's
     * start in microseconds).
     */
    static PartitionData dayValue(PartitionSpec daySpec, DayPartition day) {
        PartitionData values = new PartitionData(daySpec.partitionType());
        values.set(0, day.tenantId());
        boolean identity = daySpec.fields().get(1).transform().isIdentity();
        long days = day.date().toEpochDay();
        values.set(1, identity ? (Object) (days * 86_400L * 1_000_000L) : (Object) (int) days);
        return values;
    }

    /**
     * The partition values of {@code partitions} in {@code spec}, and of their days in the day partitions' spec when
     * the table has it, for Iceberg's manifest pruning.
     */
    static PartitionSet set(Map<Integer, PartitionSpec> specs, PartitionSpec spec,
            Collection<PartitionKey> partitions) {
        PartitionSet out = PartitionSet.create(specs);
        partitions.forEach(p -> out.add(spec.specId(), value(spec, p)));
        ViewSchema.daySpec(specs).ifPresent(daySpec -> SyncScope.days(partitions)
                .forEach(d -> out.add(daySpec.specId(), dayValue(daySpec, d))));
        return out;
    }
}
