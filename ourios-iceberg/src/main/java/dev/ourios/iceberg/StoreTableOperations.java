package dev.ourios.iceberg;

import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The view's table versions, kept in the store without a catalog service, in the layout Iceberg's path-based
 * loaders read: {@code iceberg/logs/metadata/v<N>.metadata.json}, plus {@code version-hint.text} holding N. A
 * commit publishes version N+1 create-only ({@link ObjectStore#putIfAbsent}: a hard link on disk, {@code
 * If-None-Match: *} on S3), so of two writers building on version N exactly one wins and the other gets a
 * {@link CommitFailedException}. The hint is only a starting point: the current version is the highest N present
 * from the hint on.
 */
public final class StoreTableOperations implements TableOperations {
    private static final Logger LOG = LoggerFactory.getLogger(StoreTableOperations.class);
    private static final Pattern VERSION_FILE = Pattern.compile("v([1-9][0-9]{0,9})\\.metadata\\.json");

    private final ObjectStore store;
    private final StoreLocation location;
    private final ViewLayout layout;
    private final StoreFileIO io;
    private TableMetadata current;
    private int version;
    private boolean shouldRefresh = true;
    private boolean pinned;

    public StoreTableOperations(ObjectStore store, StoreLocation location, ViewLayout layout) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.location = Objects.requireNonNull(location, "location is null");
        this.layout = Objects.requireNonNull(layout, "layout is null");
        this.io = new StoreFileIO(store, location);
    }

    /** The current version number, 0 when the table does not exist. */
    public int version() {
        current();
        return version;
    }

    @Override
    public TableMetadata current() {
        return shouldRefresh ? refresh() : current;
    }

    /**
     * Pins these operations to the version they read first: a later {@link #refresh()} returns it unchanged, so
     * Iceberg's transaction never re-applies a planned change on a newer version (which would add files another
     * syncer already added). A commit then either lands on the planned version or fails, and the caller plans
     * again from the store.
     */
    public StoreTableOperations pin() {
        current();
        pinned = true;
        return this;
    }

    @Override
    public TableMetadata refresh() {
        if (pinned) {
            return current;
        }
        try {
            int v = startingVersion();
            while (v < Integer.MAX_VALUE && store.stat(layout.versionKey(v + 1)).isPresent()) {
                v++;
            }
            if (v == 0) {
                current = null;
            } else if (v != version || current == null) {
                current = TableMetadataParser.read(io, location.uri(layout.versionKey(v)));
            }
            version = v;
            shouldRefresh = false;
            return current;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the Iceberg view's versions under "
                    + store.describe(layout.metadataPrefix()) + ": " + e.getMessage(), e);
        }
    }

    /** The hint if it names an existing version, else the highest version listed (0 when there is none). */
    private int startingVersion() throws IOException {
        try {
            String hint = new String(store.readAllBytes(layout.versionHintKey()), StandardCharsets.UTF_8).trim();
            int v = Integer.parseInt(hint);
            if (v > 0 && store.stat(layout.versionKey(v)).isPresent()) {
                return v;
            }
        } catch (dev.ourios.store.NoSuchObjectException | NumberFormatException e) {
            // No hint or a damaged one: fall through to the listing, which is authoritative.
        }
        int highest = 0;
        for (ObjectInfo o : store.listObjects(layout.metadataPrefix())) {
            OptionalInt v = versionOf(o.name());
            if (v.isPresent() && v.getAsInt() > highest) {
                highest = v.getAsInt();
            }
        }
        return highest;
    }

    static OptionalInt versionOf(String name) {
        Matcher m = VERSION_FILE.matcher(name);
        return m.matches() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
        TableMetadata now = current();
        if (base != now) {
            throw new CommitFailedException("Cannot commit: the Iceberg view changed since it was read");
        }
        if (base == metadata) {
            return;
        }
        int next = version + 1;
        String key = layout.versionKey(next);
        byte[] json = TableMetadataParser.toJson(metadata).getBytes(StandardCharsets.UTF_8);
        boolean created;
        try {
            created = store.putIfAbsent(key, json);
        } catch (IOException e) {
            // putIfAbsent settles what it can by reading back; an error here leaves the outcome unknown, so nothing
            // this commit wrote may be cleaned up.
            throw new CommitStateUnknownException(e);
        }
        shouldRefresh = true;
        if (!created) {
            throw new CommitFailedException("Cannot commit: another writer published version %d of the Iceberg view "
                    + "first", next);
        }
        LOG.info("committed {}", store.describe(key));
        try {
            store.put(layout.versionHintKey(), Integer.toString(next).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // The hint is best effort: readers find later versions by probing from it.
            LOG.warn("could not update {}: {}", store.describe(layout.versionHintKey()), e.getMessage());
        }
        CatalogUtil.deleteRemovedMetadataFiles(io, base, metadata);
    }

    @Override
    public FileIO io() {
        return io;
    }

    @Override
    public String metadataFileLocation(String fileName) {
        return location.uri(layout.metadataPrefix() + fileName);
    }

    @Override
    public LocationProvider locationProvider() {
        return LocationProviders.locationsFor(location.uri(layout.tablePrefix()), current() == null ? java.util.Map.of()
                : current().properties());
    }
}
