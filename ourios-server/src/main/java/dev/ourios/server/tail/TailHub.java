package dev.ourios.server.tail;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.http.HttpRefusal;
import dev.ourios.ingest.flush.LandedRows;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * The live tails of a server: the ingester's flushes hand it the rows of every file they publish (so a row is
 * tailed once it is durable in the store and a query would return it), and it queues those that match each
 * client's query on that client's {@link TailSubscription}. At most {@link TailSettings#maxClients()} tails are open
 * (429 beyond); {@link #close()} ends them all, so the server's drain does not wait on a tail.
 */
public final class TailHub implements LandedRows, AutoCloseable {
    private final TailSettings settings;
    private final List<TailSubscription> subscriptions = new CopyOnWriteArrayList<>();
    private boolean closed;

    public TailHub(TailSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    public TailSettings settings() {
        return settings;
    }

    /**
     * A new tail of {@code tenant}'s rows that {@code filter} keeps.
     *
     * @throws HttpRefusal 429 when {@code maxClients} tails are open, 503 once the server is stopping
     */
    public synchronized TailSubscription subscribe(String tenant, Predicate<LogRecord> filter) {
        if (closed) {
            throw new HttpRefusal(503, null, "the server is shutting down", 5);
        }
        if (subscriptions.size() >= settings.maxClients()) {
            throw new HttpRefusal(429, null, "every live tail is taken (http.tail_max_clients = "
                    + settings.maxClients() + "); retry later", 10);
        }
        TailSubscription[] self = new TailSubscription[1];
        self[0] = new TailSubscription(tenant, filter, settings.queueRows(), () -> subscriptions.remove(self[0]));
        subscriptions.add(self[0]);
        return self[0];
    }

    /** Tails open now. */
    public int open() {
        return subscriptions.size();
    }

    @Override
    public void landed(PartitionKey partition, List<LogRecord> rows) {
        for (TailSubscription s : subscriptions) {
            if (s.tenant().equals(partition.tenantId())) {
                s.offer(rows);
            }
        }
    }

    /** Ends every tail and refuses new ones (the server is stopping). */
    @Override
    public synchronized void close() {
        closed = true;
        for (TailSubscription s : subscriptions) {
            s.end();
        }
    }
}
