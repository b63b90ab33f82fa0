package dev.ourios.gen;

import dev.ourios.core.BodyKind;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.DemoService.AttributeKey;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

/**
 * Deterministic OpenTelemetry-demo-shaped log records (see {@link DemoCatalogue}), one ingest file at a time.
 *
 * <p>Every (tenant, hour, file) has its own random stream derived from the global seed, so files can be generated
 * in any order, in parallel or again later, and come out identical. Each file's rows are spread over the whole hour
 * in random order, as independent ingesters flushing concurrently produce them: files overlap in time and none is
 * sorted, which is the input compaction has to handle.
 *
 * <p>Rows: mostly template-clean (body null, template id, params, separators with
 * {@code separators.size() == params.size() + 1}), a service-dependent share lossy (body kept, params still
 * present); mostly INFO, some WARN and ERROR; 1 % with {@code time_unix_nano} 0 so that the effective time comes
 * from the observed time. Every row's effective time lies in its hour.
 */
public final class LogGenerator {
    private static final long NANOS_PER_HOUR = 3_600_000_000_000L;
    private static final long MAX_OBSERVED_DELAY_NANOS = 200_000_000L;

    private final GeneratorSpec spec;
    private final List<DemoService> services;
    private final double[] cumulativeWeight;
    private final double[][] templateCumulative;

    public LogGenerator(GeneratorSpec spec) {
        this.spec = spec;
        this.services = DemoCatalogue.services(spec.services());
        this.cumulativeWeight = cumulative(services.stream().mapToDouble(DemoService::weight).toArray());
        this.templateCumulative = new double[services.size()][];
        for (int i = 0; i < services.size(); i++) {
            // Zipf-like use of a service's templates: its first line dominates, as in real services.
            int n = services.get(i).templates().size();
            double[] w = new double[n];
            for (int t = 0; t < n; t++) {
                w[t] = 1.0 / (t + 1);
            }
            templateCumulative[i] = cumulative(w);
        }
    }

    public GeneratorSpec spec() {
        return spec;
    }

    public List<DemoService> services() {
        return services;
    }

    /** The partition of the given tenant and hour index. */
    public PartitionKey partition(String tenant, int hourIndex) {
        checkIndexes(tenant, hourIndex, 0);
        return PartitionKey.ofHour(tenant, spec.startHour().plusSeconds(3600L * hourIndex));
    }

    /** The rows of one ingest file, in generation (unsorted) order. */
    public List<LogRecord> file(String tenant, int hourIndex, int fileIndex) {
        List<LogRecord> out = new ArrayList<>(spec.rowsPerFile());
        stream(tenant, hourIndex, fileIndex).forEachRemaining(out::add);
        return out;
    }

    /** The same rows as {@link #file}, produced lazily, for files larger than the heap. */
    public Iterator<LogRecord> stream(String tenant, int hourIndex, int fileIndex) {
        checkIndexes(tenant, hourIndex, fileIndex);
        SplittableRandom random = new SplittableRandom(seedFor(tenant, hourIndex, fileIndex));
        long hourStart = partition(tenant, hourIndex).hourStartNanos();
        return new Iterator<>() {
            private int produced;

            @Override
            public boolean hasNext() {
                return produced < spec.rowsPerFile();
            }

            @Override
            public LogRecord next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                produced++;
                return row(tenant, hourStart, random);
            }
        };
    }

    /** The seed of one file's stream: the global seed mixed with the tenant, hour and file. */
    public long seedFor(String tenant, int hourIndex, int fileIndex) {
        long z = mix(spec.seed() ^ DemoCatalogue.fnv(tenant));
        z = mix(z + hourIndex);
        return mix(z * 31 + fileIndex);
    }

    private void checkIndexes(String tenant, int hourIndex, int fileIndex) {
        if (!spec.tenants().contains(tenant)) {
            throw new IllegalArgumentException("tenant '" + tenant + "' is not in the spec " + spec.tenants());
        }
        if (hourIndex < 0 || hourIndex >= spec.hours() || fileIndex < 0 || fileIndex >= spec.filesPerHour()) {
            throw new IllegalArgumentException("hour " + hourIndex + " / file " + fileIndex + " outside "
                    + spec.hours() + " hours x " + spec.filesPerHour() + " files");
        }
    }

    private LogRecord row(String tenant, long hourStart, SplittableRandom r) {
        int s = pick(cumulativeWeight, r);
        DemoService svc = services.get(s);
        Template tmpl = svc.templates().get(pick(templateCumulative[s], r));

        long instant = hourStart + r.nextLong(NANOS_PER_HOUR);
        long time;
        long observed;
        if (r.nextInt(100) == 0) {
            time = 0; // an SDK that sets only the observed time: the effective time must come from it
            observed = instant;
        } else {
            time = instant;
            observed = instant + r.nextLong(MAX_OBSERVED_DELAY_NANOS);
        }

        List<Param> params = new ArrayList<>(tmpl.slots().size());
        for (Template.Slot slot : tmpl.slots()) {
            params.add(new Param(slot.typeTag(),
                    Vocabulary.value(slot.kind(), r, instant).getBytes(StandardCharsets.UTF_8)));
        }
        boolean lossy = spec.bodyBytes() > 0 || r.nextDouble() < svc.lossyRate();

        LogRecord.Builder b = LogRecord.builder(tenant)
                .templateId(tmpl.id())
                .templateVersion(1)
                .timeUnixNano(time)
                .observedTimeUnixNano(observed)
                .scopeName(svc.scopeName())
                .scopeVersion(svc.scopeVersion())
                .resourceAttributes(svc.resourceAttributes())
                .serviceName(svc.name())
                .attributes(attributes(svc, tmpl, r, instant))
                .bodyKind(BodyKind.STRING)
                .params(params)
                .separators(tmpl.literals())
                .lossyFlag(lossy)
                .confidence(lossy ? 0.5f : 1.0f);
        severity(b, svc, r);
        if (r.nextDouble() < svc.tracedRate()) {
            byte[] trace = new byte[16];
            byte[] span = new byte[8];
            r.nextBytes(trace);
            r.nextBytes(span);
            b.traceId(trace).spanId(span).flags(1);
        }
        if (lossy) {
            b.body(body(Template.render(tmpl.literals(), params), r));
        }
        return b.build();
    }

    private static void severity(LogRecord.Builder b, DemoService svc, SplittableRandom r) {
        int roll = r.nextInt(1000);
        if (roll < 5) {
            b.severityNumber(17).severityText("ERROR");
        } else if (roll < 20) {
            b.severityNumber(13).severityText("WARN");
        } else {
            b.severityNumber(9).severityText(svc.infoText());
        }
    }

    private static String attributes(DemoService svc, Template tmpl, SplittableRandom r, long instant) {
        if (tmpl.attributeCount() == 0) {
            return AttributesJson.EMPTY;
        }
        List<KeyValue> kvs = new ArrayList<>(tmpl.attributeCount());
        for (int i = 0; i < tmpl.attributeCount(); i++) {
            AttributeKey key = svc.attributeKeys().get(i);
            AnyValue v;
            if (key.kind().startsWith("int:")) {
                v = AnyValue.of(Long.parseLong(Vocabulary.value(key.kind().substring(4), r, instant)));
            } else if (key.kind().equals("bool")) {
                v = AnyValue.of(r.nextBoolean());
            } else {
                v = AnyValue.of(Vocabulary.value(key.kind(), r, instant));
            }
            kvs.add(new KeyValue(key.key(), v));
        }
        return AttributesJson.encode(kvs);
    }

    /** The original line, padded with compressible words to about {@code bodyBytes} when that is set. */
    private byte[] body(byte[] rendered, SplittableRandom r) {
        if (spec.bodyBytes() <= rendered.length) {
            return rendered;
        }
        StringBuilder sb = new StringBuilder(spec.bodyBytes() + 16);
        sb.append(new String(rendered, StandardCharsets.UTF_8));
        Vocabulary.filler(sb, spec.bodyBytes(), r);
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static double[] cumulative(double[] weights) {
        double[] c = new double[weights.length];
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i];
            c[i] = sum;
        }
        for (int i = 0; i < c.length; i++) {
            c[i] /= sum;
        }
        return c;
    }

    private static int pick(double[] cumulative, SplittableRandom r) {
        double x = r.nextDouble();
        for (int i = 0; i < cumulative.length; i++) {
            if (x < cumulative[i]) {
                return i;
            }
        }
        return cumulative.length - 1;
    }

    /** The murmur3 64-bit finaliser: spreads nearby inputs (hour 3 vs 4) to unrelated seeds. */
    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }
}
