package dev.ourios.compaction;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The scrub behind {@code ourios verify}: re-reads every live file and checks it against its own footer (row count),
 * the row-vs-path rule, and, for the file a manifest's commit record names, the size, row count and
 * order-independent checksum recorded at commit. Changes nothing.
 */
public final class Verifier {
    private final ObjectStore store;
    private final TableLayout layout;
    private final TableReader reader;

    public Verifier(ObjectStore store, TableLayout layout, TableReader reader) {
        this.store = store;
        this.layout = layout;
        this.reader = reader;
    }

    /** One partition's verdict: {@code problems} is empty when everything matched. */
    public record PartitionVerdict(PartitionKey partition, long generation, int files, long rows,
            List<String> problems) {
        public PartitionVerdict {
            problems = List.copyOf(problems);
        }

        public boolean ok() {
            return problems.isEmpty();
        }
    }

    public List<PartitionVerdict> verify(PartitionFilter filter, Consumer<PartitionVerdict> onVerdict)
            throws java.io.IOException {
        List<PartitionVerdict> out = new ArrayList<>();
        for (PartitionKey p : layout.partitions(filter)) {
            PartitionVerdict v = verify(p);
            out.add(v);
            onVerdict.accept(v);
        }
        return out;
    }

    public PartitionVerdict verify(PartitionKey p) {
        List<String> problems = new ArrayList<>();
        PartitionSnapshot s;
        try {
            s = reader.snapshot(p);
        } catch (Exception e) {
            return new PartitionVerdict(p, -1, 0, 0, List.of(p + ": " + e.getMessage()));
        }
        CommitRecord commit = s.manifest().flatMap(m -> m.commitRecord()).orElse(null);
        boolean commitOutputLive = false;
        long rows = 0;
        for (ObjectInfo f : s.live()) {
            if (commit != null && f.name().equals(commit.output())) {
                commitOutputLive = true;
            }
            RowChecksum sum = new RowChecksum();
            long footerRows;
            try (LogFileReader r = LogFileReader.open(store, f.key(), ReadOptions.partition(p))) {
                footerRows = r.rowCount();
                LogRecord rec;
                while ((rec = r.read()) != null) {
                    sum.add(rec);
                }
            } catch (Exception e) {
                String msg = String.valueOf(e.getMessage());
                problems.add(msg.contains(f.name()) ? msg : store.describe(f.key()) + ": " + msg);
                continue;
            }
            rows += sum.rows();
            if (footerRows != sum.rows()) {
                problems.add(store.describe(f.key()) + ": footer says " + footerRows + " rows, read " + sum.rows());
            }
            if (commit != null && f.name().equals(commit.output())) {
                if (f.size() != commit.bytesOut()) {
                    problems.add(store.describe(f.key()) + ": " + f.size() + " bytes, the commit of generation "
                            + s.generation() + " recorded " + commit.bytesOut());
                }
                if (sum.rows() != commit.rows() || !sum.value().equals(commit.checksum())) {
                    problems.add(store.describe(f.key()) + ": checksum " + sum.value()
                            + " differs from the one recorded at commit (" + commit.checksum() + ")");
                }
            }
        }
        if (commit != null && !commitOutputLive && s.manifest().get().fileNames().contains(commit.output())) {
            problems.add(p + ": committed output " + commit.output() + " is not live");
        }
        return new PartitionVerdict(p, s.generation(), s.live().size(), rows, problems);
    }
}
