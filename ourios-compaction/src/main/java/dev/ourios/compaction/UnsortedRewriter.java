package dev.ourios.compaction;

import dev.ourios.core.FileNames;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Uuid7;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.parquet.write.WrittenFile;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.MessageType;

/**
 * The pre-RFC-0036 mechanism: copies a partition's inputs into one {@code <uuidv7>.compacted.parquet} without
 * sorting. Kept as the baseline the sorted layout is benchmarked against (what sorting costs), so it does
 * everything else the sorted rewrite does: rows are validated against the partition, re-projected, checksummed on
 * both sides, and the output is published atomically but invisible. It holds one decoded row at a time, so it needs
 * no sort budget and never spills. It does not declare {@code sorting_columns}: its rows are in the order the input
 * readers deliver them (each input's in row order, the inputs' batches interleaved as they are decoded), which is
 * not deterministic; no sweep uses it.
 */
public final class UnsortedRewriter implements PartitionRewriter {
    private final ObjectStore store;
    private final Uuid7 uuids;

    public UnsortedRewriter(ObjectStore store, Uuid7 uuids) {
        this.store = store;
        this.uuids = uuids;
    }

    public UnsortedRewriter(ObjectStore store) {
        this(store, Uuid7.system());
    }

    @Override
    public RewriteResult rewrite(CompactionPlan plan) throws IOException {
        LogSchema union = unionSchema(plan);
        String outputName = uuids.next() + FileNames.COMPACTED;
        String outputKey = plan.partition().dataPrefix() + outputName;
        WriterOptions opts = WriterOptions.compacted(plan.rowGroupBytes()).withDeclareSorting(false)
                .withExtras(union.extras());
        try (LogFileWriter writer = new LogFileWriter(store.create(outputKey), opts);
                BackgroundChecksum in = BackgroundChecksum.start("ourios-checksum-in");
                BackgroundChecksum out = BackgroundChecksum.start("ourios-checksum-out")) {
            try (PrefetchedInputs inputs = new PrefetchedInputs(store, plan, PrefetchedInputs.READERS,
                    "ourios-input-reader")) {
                inputs.forEach((source, projected, origin) -> {
                    long weight = RecordFootprint.estimate(source);
                    in.add(source, weight);
                    out.add(projected, weight);
                    writer.write(projected);
                });
            }
            String inSum = in.value();
            String outSum = out.value();
            if (!inSum.equals(outSum)) {
                writer.abort();
                throw new ChecksumMismatchException(plan.partition(), inSum, outSum);
            }
            WrittenFile written = writer.commit();
            return new RewriteResult(outputKey, outputName, in.rows(), out.rows(), plan.bytesIn(), written.bytes(),
                    written.rowGroups(), inSum, outSum, 0, 0, 0);
        }
    }

    private LogSchema unionSchema(CompactionPlan plan) throws IOException {
        List<MessageType> schemas = new ArrayList<>();
        for (ObjectInfo input : plan.inputs()) {
            try (LogFileReader reader = LogFileReader.open(store, input.key(), ReadOptions.all())) {
                schemas.add(reader.fileSchema());
            }
        }
        return LogSchema.union(schemas);
    }
}
