package dev.ourios.bench.unsorted;

import dev.ourios.compaction.PartitionRewriter;
import dev.ourios.compaction.RewriteResult;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.sort.RecordFootprint;
import dev.ourios.compaction.verify.ChecksumMismatchException;
import dev.ourios.core.FileNames;
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
 * The benchmark's baseline: copies a partition's inputs into one {@code <uuidv7>.compacted.parquet} without sorting,
 * to measure what sorting costs. So it does everything else the product's sorted rewrite does: rows are validated
 * against the partition, re-projected, checksummed on both sides on helper threads, and the output is published
 * atomically but invisible. It holds one decoded row at a time, so it needs no sort budget and never spills. It does
 * not declare {@code sorting_columns}: its rows are in the order the input readers deliver them, which is not
 * deterministic. Built only from the compaction's public API; no sweep uses it.
 */
public final class UnsortedRewriter implements PartitionRewriter {
    private final ObjectStore store;
    private final Uuid7 uuids;

    public UnsortedRewriter(ObjectStore store) {
        this.store = store;
        this.uuids = Uuid7.system();
    }

    @Override
    public RewriteResult rewrite(CompactionPlan plan) throws IOException {
        LogSchema union = unionSchema(plan);
        String outputName = uuids.next() + FileNames.COMPACTED;
        String outputKey = plan.partition().dataPrefix() + outputName;
        WriterOptions opts = WriterOptions.compacted(plan.rowGroupBytes()).withDeclareSorting(false)
                .withExtras(union.extras());
        try (LogFileWriter writer = new LogFileWriter(store.create(outputKey), opts);
                RecordChecksumThread in = new RecordChecksumThread("ourios-checksum-in");
                RecordChecksumThread out = new RecordChecksumThread("ourios-checksum-out")) {
            try (InputRecords inputs = new InputRecords(store, plan)) {
                inputs.forEach((source, projected) -> {
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
