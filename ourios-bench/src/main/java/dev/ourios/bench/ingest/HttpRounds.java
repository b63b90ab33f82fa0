package dev.ourios.bench.ingest;

import dev.ourios.bench.Fixture;
import dev.ourios.store.ObjectInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Runs one {@link HttpRound} in a fresh directory: a new receiver, WAL and store each time. */
public final class HttpRounds {
    private static final String TENANT = "default"; // no X-Ourios-Tenant header, as an SDK sends out of the box

    private final RequestPool pool;
    private final int clients;
    private final Duration window;

    public HttpRounds(RequestPool pool, int clients, Duration window) {
        this.pool = pool;
        this.clients = clients;
        this.window = window;
    }

    /** {@code compact}: a sealed partition copied into the receiver's store and compacted during the window. */
    public HttpRound run(Path root, Fixture compact) throws Exception {
        if (compact != null) {
            for (ObjectInfo o : compact.inputs()) {
                Path dst = root.resolve("store").resolve(o.key());
                Files.createDirectories(dst.getParent());
                Files.copy(compact.root().resolve(o.key()), dst);
            }
        }
        try (Receiver r = Receiver.open(root)) {
            Path scratch = Files.createDirectories(root.resolve("compaction-scratch"));
            BackgroundCompaction c = compact == null ? null : BackgroundCompaction.start(r.store(), scratch);
            LoadResult load = new OtlpLoad(r.endpoint(), pool, clients).run(window);
            long syncs = r.walSyncs();
            double compaction = c == null ? -1 : c.await();
            double drain = r.drain();
            long rows = r.rows(TENANT);
            // Requests that failed in flight may have been stored (at-least-once); an acknowledged one never missing.
            if (rows < load.records()) {
                throw new IOException("acknowledged " + load.records() + " records but " + rows + " landed");
            }
            return new HttpRound(load, drain, rows, syncs, compaction);
        }
    }
}
