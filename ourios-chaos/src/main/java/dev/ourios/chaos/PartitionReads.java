package dev.ourios.chaos;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads one partition whole through the real querier (live-set resolution, re-resolve once) as row identities. */
final class PartitionReads {
    private final QueryEngine engine;

    PartitionReads(ObjectStore store) {
        this.engine = new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                MeterProvider.noop());
    }

    List<String> identities(PartitionKey p) throws IOException {
        List<String> ids = new ArrayList<>();
        Query q = Query.tenant(p.tenantId()).window(p.hourStart(), p.hourStart().plusSeconds(3600));
        engine.run(q, (LogRecord r) -> ids.add(RowIdentity.of(r)));
        return ids;
    }
}
