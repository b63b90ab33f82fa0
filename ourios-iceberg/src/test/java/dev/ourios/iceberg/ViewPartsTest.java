package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.types.Types;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types.PrimitiveBuilder;
import org.junit.jupiter.api.Test;

/** The pure parts of the view: locations, the sync plan, the type mapping, version names. */
class ViewPartsTest {
    @Test
    void locationsRoundTripAndRefuseForeignUris() {
        StoreLocation local = StoreLocation.of("/data/store/../store");
        assertEquals("file:/data/store/", local.root());
        assertEquals("file:/data/store/data/x.parquet", local.uri("data/x.parquet"));
        assertEquals("data/x.parquet", local.key("file:/data/store/data/x.parquet"));
        assertEquals("data/x.parquet", local.key("file:///data/store/data/x.parquet"));
        assertEquals(local, StoreLocation.of("file:///data/store"));
        assertThrows(IllegalArgumentException.class, () -> local.key("file:/data/other/x.parquet"));
        assertThrows(IllegalArgumentException.class, () -> local.key("file:/data/store/"));
        StoreLocation s3 = StoreLocation.of("s3://logs/prod");
        assertEquals("s3://logs/prod/iceberg/logs/metadata/v1.metadata.json",
                s3.uri(ViewLayout.DEFAULT.versionKey(1)));
        assertThrows(IllegalArgumentException.class, () -> s3.key("s3://logs/production/data/x.parquet"));
        assertEquals(Path.of("/a/b").toAbsolutePath().normalize(), Path.of(StoreLocation.local(Path.of("/a/b"))
                .root().substring("file:".length())));
    }

    @Test
    void thePlanAddsWhatIsLiveAndRemovesWhatIsNot() {
        PartitionKey p = PartitionKey.ofHour("acme", Instant.parse("2026-01-01T10:00:00Z"));
        PartitionKey q = PartitionKey.ofHour("acme", Instant.parse("2026-01-01T11:00:00Z"));
        SortedMap<String, StoreLiveSet.LiveFile> live = new TreeMap<>();
        live.put(p.dataPrefix() + "a.parquet", file(p, "a.parquet"));
        live.put(p.dataPrefix() + "b.parquet", file(p, "b.parquet"));
        live.put(q.dataPrefix() + "c.parquet", file(q, "c.parquet"));
        SortedMap<String, DataFile> current = new TreeMap<>();
        current.put(p.dataPrefix() + "a.parquet", dataFile(p.dataPrefix() + "a.parquet"));
        current.put(q.dataPrefix() + "old.parquet", dataFile(q.dataPrefix() + "old.parquet"));
        current.put(q.dataPrefix() + "c.parquet", dataFile(q.dataPrefix() + "c.parquet"));
        SyncPlan plan = SyncPlan.of(live, current);
        assertEquals(List.of(p.dataPrefix() + "b.parquet"), plan.add().stream().map(f -> f.object().key()).toList());
        assertEquals(List.of("file:/s/" + q.dataPrefix() + "old.parquet"),
                plan.remove().stream().map(DataFile::location).toList());
        assertEquals(2, plan.changedPartitions().size());
        assertTrue(SyncPlan.of(live, new TreeMap<>(java.util.Map.of(
                p.dataPrefix() + "a.parquet", current.get(p.dataPrefix() + "a.parquet"),
                p.dataPrefix() + "b.parquet", dataFile(p.dataPrefix() + "b.parquet"),
                q.dataPrefix() + "c.parquet", current.get(q.dataPrefix() + "c.parquet")))).isEmpty());
    }

    @Test
    void typesMapOnlyWhereIcebergReadsTheStoredValue() {
        assertEquals(Optional.empty(), ViewSchema.icebergType(prim(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.intType(64, false)).named("x"), ViewForm.TIMESTAMP_NS));
        assertEquals(Optional.of(Types.LongType.get()), ViewSchema.icebergType(prim(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.intType(64, true)).named("x"), ViewForm.TIMESTAMP_NS));
        assertEquals(Optional.of(Types.LongType.get()), ViewSchema.icebergType(prim(PrimitiveTypeName.INT32)
                .as(LogicalTypeAnnotation.intType(32, false)).named("x"), ViewForm.TIMESTAMP_NS));
        assertEquals(Optional.of(Types.IntegerType.get()), ViewSchema.icebergType(prim(PrimitiveTypeName.INT32)
                .as(LogicalTypeAnnotation.intType(8, false)).named("x"), ViewForm.TIMESTAMP_NS));
        assertEquals(Optional.of(Types.TimestampNanoType.withZone()), ViewSchema.icebergType(
                prim(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.timestampType(true,
                        LogicalTypeAnnotation.TimeUnit.NANOS)).named("x"), ViewForm.TIMESTAMP_NS));
        assertEquals(Optional.of(Types.StringType.get()), ViewSchema.icebergType(prim(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType()).named("x"), ViewForm.TIMESTAMP_NS));
        assertEquals(Optional.of(Types.BinaryType.get()), ViewSchema.icebergType(prim(PrimitiveTypeName.BINARY)
                .named("x"), ViewForm.TIMESTAMP_NS));
        assertEquals(Optional.empty(), ViewSchema.icebergType(prim(PrimitiveTypeName.INT96).named("x"), ViewForm.TIMESTAMP_NS));
        // The base schema holds every storage column, time columns in nanoseconds.
        assertEquals(Types.TimestampNanoType.withZone(), ViewSchema.base(ViewForm.TIMESTAMP_NS).findType("time_unix_nano"));
        assertEquals(Types.LongType.get(), ViewSchema.base(ViewForm.TIMESTAMP_NS).findType("template_id"));
        assertEquals(27, ViewSchema.base(ViewForm.TIMESTAMP_NS).columns().size());
        // The long form: time columns and nanosecond extras as long, and the partition's hour as a column.
        assertEquals(Types.LongType.get(), ViewSchema.base(ViewForm.LONG).findType("time_unix_nano"));
        assertEquals(Types.TimestampType.withZone(), ViewSchema.base(ViewForm.LONG).findType("effective_hour"));
        assertEquals(28, ViewSchema.base(ViewForm.LONG).columns().size());
        assertEquals(Optional.of(Types.LongType.get()), ViewSchema.icebergType(prim(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.NANOS)).named("x"),
                ViewForm.LONG));
    }

    @Test
    void versionFilesAreRecognisedByName() {
        assertEquals(OptionalInt.of(12), StoreTableOperations.versionOf("v12.metadata.json"));
        assertEquals(OptionalInt.empty(), StoreTableOperations.versionOf("v0.metadata.json"));
        assertEquals(OptionalInt.empty(), StoreTableOperations.versionOf("v012.metadata.json"));
        assertEquals(OptionalInt.empty(), StoreTableOperations.versionOf("00001-abc.metadata.json"));
        assertTrue(ViewLayout.DEFAULT.owns("iceberg/logs/metadata/snap-1.avro"));
        assertTrue(!ViewLayout.DEFAULT.owns("data/tenant_id=a/x.parquet"));
    }

    private static PrimitiveBuilder<PrimitiveType> prim(PrimitiveTypeName t) {
        return org.apache.parquet.schema.Types.optional(t);
    }

    private static StoreLiveSet.LiveFile file(PartitionKey p, String name) {
        return new StoreLiveSet.LiveFile(p, new ObjectInfo(p.dataPrefix() + name, 10, Instant.EPOCH));
    }

    private static DataFile dataFile(String key) {
        return DataFiles.builder(PartitionSpec.unpartitioned()).withPath("file:/s/" + key)
                .withFormat(FileFormat.PARQUET).withFileSizeInBytes(10).withRecordCount(1).build();
    }
}
