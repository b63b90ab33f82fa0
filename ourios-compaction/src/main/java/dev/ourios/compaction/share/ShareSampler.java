package dev.ourios.compaction.share;

import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.read.RowPrefilter;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fixes a rewrite's shares from its inputs alone (docs/spec/storage.md, "Shares of a large rewrite"): how many from
 * the inputs' bytes against the largest file, where they are cut from a sample of the inputs' stored keys. Only the
 * key columns of the inputs are read (service, time, observed time), and the result depends on nothing but the
 * input files, so every worker count, process and backend cuts a plan the same way.
 */
public final class ShareSampler {
    /** The most shares of one rewrite. */
    public static final int MAX_SHARES = 64;
    /** Sampled rows per share: enough that a share's rows are within a few percent of its due. */
    static final int SAMPLES_PER_SHARE = 4096;

    private static final Set<String> KEY_COLUMNS = Set.of(Columns.SERVICE_NAME, Columns.TIME, Columns.OBSERVED_TIME);

    private final ObjectStore store;

    public ShareSampler(ObjectStore store) {
        this.store = store;
    }

    /** How many shares a rewrite of {@code bytesIn} input bytes has under {@code maxFileBytes}: 1 when not split. */
    public static int shareCount(long bytesIn, long maxFileBytes) {
        long k = bytesIn / (2 * maxFileBytes);
        return (int) Math.max(1, Math.min(MAX_SHARES, k));
    }

    /** The shares of {@code plan}: one, reading nothing, unless its inputs hold four times its largest file. */
    public Shares shares(CompactionPlan plan) throws IOException {
        long bytesIn = plan.bytesIn();
        int k = shareCount(bytesIn, plan.maxFileBytes());
        if (k < 2) {
            return Shares.one();
        }
        List<ShareKey> sample = new ArrayList<>();
        Map<String, String> services = new HashMap<>();
        for (ObjectInfo input : plan.inputs()) {
            sampleInput(input, k, bytesIn, sample, services);
        }
        return cutsOf(sample, k);
    }

    /** The shares the spec's rule gives for {@code sample}: cut j at the sorted sample's key floor(j n / k). */
    static Shares cutsOf(List<ShareKey> sample, int k) {
        if (sample.isEmpty()) {
            return Shares.one();
        }
        List<ShareKey> sorted = new ArrayList<>(sample);
        sorted.sort(null);
        int n = sorted.size();
        List<ShareKey> cuts = new ArrayList<>(k - 1);
        for (int j = 1; j < k; j++) {
            ShareKey cut = sorted.get((int) ((long) j * n / k));
            if (cuts.isEmpty() || cuts.get(cuts.size() - 1).compareTo(cut) < 0) {
                cuts.add(cut);
            }
        }
        return Shares.cutAt(cuts);
    }

    private void sampleInput(ObjectInfo input, int k, long bytesIn, List<ShareKey> sample,
            Map<String, String> services) throws IOException {
        long due = (long) Math.ceil((double) SAMPLES_PER_SHARE * k * input.size() / Math.max(1, bytesIn));
        KeySample visit = new KeySample(sample, services);
        try (LogFileReader r = LogFileReader.open(store, input.key(), ReadOptions.all().withPrefilter(visit))) {
            visit.stride = Math.max(1, r.rowCount() / Math.max(1, due));
            while (r.read() != null) {
                throw new IllegalStateException("BUG: a key sample returned a row");
            }
        }
    }

    /** Takes the keys of every {@code stride}-th row of a file from its key columns, returning no row. */
    private static final class KeySample implements RowPrefilter {
        private final List<ShareKey> sample;
        private final Map<String, String> services;
        long stride = 1;

        KeySample(List<ShareKey> sample, Map<String, String> services) {
            this.sample = sample;
            this.services = services;
        }

        @Override
        public Set<String> columns() {
            return KEY_COLUMNS;
        }

        @Override
        public boolean test(LogRecord partial, long rowIndex) {
            if (rowIndex % stride == 0) {
                String service = partial.serviceName();
                if (service != null) {
                    service = services.computeIfAbsent(service, s -> s);
                }
                sample.add(new ShareKey(service, partial.effectiveTime()));
            }
            return false;
        }

        @Override
        public boolean keepsNone() {
            return true;
        }
    }
}
