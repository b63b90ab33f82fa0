package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.query.Query;
import dev.ourios.store.HaltingObjectStore;
import dev.ourios.store.LocalObjectStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A deletion request as a separate process, for the deletion crash tests: it runs the request over a store directory
 * in a child JVM that halts itself at a named protocol step: the request runs on a {@link HaltingObjectStore}
 * wrapping the directory's store. Arguments: {@code <store dir> <scratch dir> <tenant> <from> <to> <severity min>
 * <step>}, the step a {@link HaltingObjectStore.Step} label; prints {@code RESULT <partition> <status>} per
 * partition and exits 0, or 1 if a partition failed.
 */
public final class DeleterProcess {
    private DeleterProcess() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: DeleterProcess <store dir> <scratch dir> <tenant> <from> <to> <severity min>"
                    + " <step>");
            System.exit(2);
        }
        HaltingObjectStore.Step step = HaltingObjectStore.Step.of(args[6]); // a typo fails before anything is touched
        DeletionRequest request = request(args[2], args[3], args[4], Integer.parseInt(args[5]));
        Deletion deletion = CompactionWiring.deletion(DeletionSettings.of(
                HaltingObjectStore.haltingAt(new LocalObjectStore(Path.of(args[0])), step),
                CompactionOptions.defaults(Path.of(args[1]))));
        List<DeletionResult> results = deletion.run(request, false, r -> {
            System.out.println("RESULT " + r.partition() + " " + r.status().label());
            System.out.flush();
        });
        System.exit(results.stream().anyMatch(r -> r.status() == DeletionResult.Status.ERROR) ? 1 : 0);
    }

    static DeletionRequest request(String tenant, String from, String to, int severityMin) {
        return new DeletionRequest(Query.tenant(tenant).window(Instant.parse(from), Instant.parse(to))
                .severityMin(severityMin));
    }
}
