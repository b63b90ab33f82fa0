package dev.ourios.compaction;

import dev.ourios.core.PartitionKey;
import dev.ourios.table.TableLayout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a deletion request over every partition it may touch (its tenant's hours overlapping its window), oldest hour
 * first, one partition at a time: counting only ({@code dryRun}) or deleting. Partitions are independent: one that
 * fails is reported and the others go on. This is the library object behind {@code ourios delete} and the shape a
 * deletion endpoint adapts.
 */
public final class Deletion {
    private final TableLayout layout;
    private final PartitionDeleter deleter;

    public Deletion(TableLayout layout, PartitionDeleter deleter) {
        this.layout = layout;
        this.deleter = deleter;
    }

    /**
     * @param onResult called with each partition's result as it completes
     * @return every partition's result, in partition order
     * @throws IOException if the tenant's partitions cannot be listed (nothing was changed)
     */
    public List<DeletionResult> run(DeletionRequest request, boolean dryRun, Consumer<DeletionResult> onResult)
            throws IOException {
        List<DeletionResult> out = new ArrayList<>();
        for (PartitionKey p : layout.partitions(request.partitions())) {
            DeletionResult r;
            try {
                r = dryRun ? deleter.count(p, request) : deleter.delete(p, request);
            } catch (Throwable t) {
                // The deleter reports its partition's failures itself; this keeps anything around them the
                // partition's too, so one partition never stops the request's others.
                String msg = Containment.describeOrName(Containment.contain(t));
                r = DeletionResult.error(p, -1, msg.contains(p.hourPath()) ? msg : p + ": " + msg, 0);
            }
            out.add(r);
            onResult.accept(r);
        }
        return out;
    }
}
