package dev.ourios.parquet;

import dev.ourios.core.BodyKind;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.parquet.write.WrittenFile;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Shared helpers: writing and reading whole files, seeded record generation. */
public final class TestFiles {
    public static final long HOUR = 1_764_432_000_000_000_000L; // 2025-11-29T16:00Z in nanos

    private TestFiles() {
    }

    public static WrittenFile write(ObjectStore store, String key, WriterOptions opts, List<LogRecord> records)
            throws IOException {
        try (LogFileWriter w = new LogFileWriter(store.create(key), opts)) {
            for (LogRecord r : records) {
                w.write(r);
            }
            return w.commit();
        }
    }

    public static List<LogRecord> readAll(ObjectStore store, String key, ReadOptions opts) throws IOException {
        List<LogRecord> out = new ArrayList<>();
        try (LogFileReader r = LogFileReader.open(store, key, opts)) {
            for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                out.add(rec);
            }
        }
        return out;
    }

    public static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    /** A random but valid record in tenant "t1", hour HOUR. */
    public static LogRecord random(Random rnd, String service) {
        return random(rnd, service, b -> {
        });
    }

    /** As {@link #random(Random, String)}, with {@code more} applied to the builder last. */
    public static LogRecord random(Random rnd, String service, java.util.function.Consumer<LogRecord.Builder> more) {
        int nParams = rnd.nextInt(4);
        List<Param> params = new ArrayList<>();
        List<byte[]> seps = new ArrayList<>();
        for (int i = 0; i < nParams; i++) {
            params.add(new Param(rnd.nextInt(9), rnd.nextInt(5) == 0 ? null : bytes(rnd, rnd.nextInt(12))));
        }
        for (int i = 0; i <= nParams; i++) {
            seps.add((" sep" + rnd.nextInt(3)).getBytes(StandardCharsets.UTF_8));
        }
        LogRecord.Builder b = LogRecord.builder("t1")
                .templateId(rnd.nextLong())
                .templateVersion(1 + rnd.nextInt(3))
                .timeUnixNano(HOUR + rnd.nextLong(3_600_000_000_000L))
                .observedTimeUnixNano(rnd.nextBoolean() ? HOUR + rnd.nextLong(3_600_000_000_000L) : null)
                .severityNumber(rnd.nextInt(25))
                .severityText(rnd.nextBoolean() ? "INFO" : null)
                .scopeName(rnd.nextBoolean() ? "scope" + rnd.nextInt(3) : null)
                .attributes("[{\"key\":\"k\",\"value\":{\"intValue\":\"" + rnd.nextInt(1000) + "\"}}]")
                .resourceAttributes("[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"" + service + "\"}}]")
                .traceId(rnd.nextBoolean() ? bytes(rnd, 16) : null)
                .spanId(rnd.nextBoolean() ? bytes(rnd, 8) : null)
                .flags(rnd.nextInt(256))
                .bodyKind(rnd.nextInt(3))
                .body(rnd.nextBoolean() ? bytes(rnd, rnd.nextInt(40)) : null)
                .params(params)
                .separators(seps)
                .confidence(rnd.nextFloat())
                .lossyFlag(rnd.nextBoolean())
                .serviceName(service);
        more.accept(b);
        return b.build();
    }

    /** Records that exercise every edge the schema has. */
    public static List<LogRecord> edgeRecords() {
        List<LogRecord> out = new ArrayList<>();
        // Every OPTIONAL column null, empty lists.
        out.add(new LogRecord("t1", 0, 0, HOUR, null, null, 0, null, null, null, "[]", 0, "[]", null, null, 0, null,
                BodyKind.ABSENT, null, List.of(), List.of(), 0f, false, null, null, null, null, null));
        // time 0 with observed set; effective derived from observed.
        out.add(LogRecord.builder("t1").timeUnixNano(0).observedTimeUnixNano(HOUR + 5).build());
        // u64 template id with the high bit set, params with null value, non-UTF-8 body, unicode service.
        out.add(LogRecord.builder("t1").templateId(0x8000_0000_0000_0001L).templateVersion(-1)
                .timeUnixNano(HOUR + 1).severityNumber(255).severityText("ЖУРНАЛ")
                .droppedAttributesCount(-1).flags(-1).bodyKind(BodyKind.STRING)
                .body(new byte[] {(byte) 0xff, (byte) 0xfe, 0, (byte) 0xc3, 0x28})
                .params(List.of(new Param(7, null), new Param(255, new byte[0]), new Param(2, "42".getBytes())))
                .separators(List.of(new byte[0], "=".getBytes(), new byte[] {(byte) 0x80}, " ".getBytes()))
                .confidence(Float.NaN).lossyFlag(true).serviceName("サービス-ü-😀")
                .eventName("evt").scopeVersion("1.0").scopeAttributes(null)
                .resourceSchemaUrl("https://r").scopeSchemaUrl("https://s")
                .traceId(new byte[16]).spanId(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}).build());
        // Non-ASCII attributes and resource attributes (encoded rows copy ASCII values as they are, others via a
        // String), the service derived from them.
        out.add(LogRecord.builder("t1").timeUnixNano(HOUR + 2)
                .attributes("[{\"key\":\"städte\",\"value\":{\"stringValue\":\"東京 😀 " + "x".repeat(9) + "\"}}]")
                .resourceAttributes("[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"prüfung\"}}]")
                .serviceName("prüfung").build());
        return out;
    }

    /** Extra columns of every type the schema allows (promoted string/int64/double and foreign types). */
    public static java.util.TreeMap<String, org.apache.parquet.schema.PrimitiveType> extrasOfEveryType() {
        var extras = new java.util.TreeMap<String, org.apache.parquet.schema.PrimitiveType>();
        extras.put("attr.http.route", LogSchema.stringColumn("attr.http.route"));
        extras.put("attr.count", LogSchema.int64Column("attr.count"));
        extras.put("attr.latency", LogSchema.doubleColumn("attr.latency"));
        extras.put("x_int", org.apache.parquet.schema.Types.optional(
                org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT32).named("x_int"));
        extras.put("x_float", org.apache.parquet.schema.Types.optional(
                org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FLOAT).named("x_float"));
        extras.put("x_bool", org.apache.parquet.schema.Types.optional(
                org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BOOLEAN).named("x_bool"));
        extras.put("x_bin", org.apache.parquet.schema.Types.optional(
                org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY).named("x_bin"));
        extras.put("x_fixed", org.apache.parquet.schema.Types.optional(
                org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(4)
                .named("x_fixed"));
        return extras;
    }

    /** Both times 0: effective time 0, partition 1970-01-01T00. */
    public static LogRecord bothZero() {
        return LogRecord.builder("t1").timeUnixNano(0).observedTimeUnixNano(0L).build();
    }
}
