package dev.ourios.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The store's identity marker, {@code <root>/ourios-store.json} (STORAGE.md §1.1): written create-only by the first
 * writer of a store ({@code ourios generate}, {@code ourios ingest}, {@code ourios serve}), holding the format
 * version and a random store id. A long-running writer checks that it is still there before it writes: a store
 * whose marker is gone (an unmounted volume, a deleted bucket or prefix) is not written to, so nothing lands on the
 * disk underneath a mount point.
 */
public final class StoreMarker {
    public static final String KEY = "ourios-store.json";
    public static final int FORMAT = 1;
    private static final Pattern FORMAT_FIELD = Pattern.compile("\"format\"\\s*:\\s*(\\d{1,9})");
    private static final Pattern ID_FIELD = Pattern.compile("\"store_id\"\\s*:\\s*\"([0-9a-f-]{36})\"");

    /** What the marker says: its format version and the store's id. */
    public record Identity(int format, UUID storeId) {
    }

    private StoreMarker() {
    }

    /** True when the marker is there (one stat: a HEAD on S3). */
    public static boolean present(ObjectStore store) throws IOException {
        return store.stat(KEY).isPresent();
    }

    /** The marker's contents, or empty when there is none. */
    public static Optional<Identity> read(ObjectStore store) throws IOException {
        if (!present(store)) {
            return Optional.empty();
        }
        return Optional.of(parse(new String(store.readAllBytes(KEY), StandardCharsets.UTF_8), store.describe(KEY)));
    }

    /**
     * The store's identity, writing the marker first when there is none (a new store, or one an older version or
     * another implementation made, which is adopted as it is). Create-only: of two writers racing, one marker wins
     * and both read it.
     */
    public static Identity ensure(ObjectStore store) throws IOException {
        Optional<Identity> existing = read(store);
        if (existing.isPresent()) {
            return existing.get();
        }
        String json = "{\"format\":" + FORMAT + ",\"store_id\":\"" + UUID.randomUUID() + "\"}\n";
        store.putIfAbsent(KEY, json.getBytes(StandardCharsets.UTF_8));
        return read(store).orElseThrow(() -> new StoreException(store.describe(KEY) + ": written but not found"));
    }

    static Identity parse(String json, String where) throws StoreException {
        Matcher f = FORMAT_FIELD.matcher(json);
        Matcher id = ID_FIELD.matcher(json);
        if (!f.find() || !id.find()) {
            throw new StoreException(where + ": not a store marker (expected {\"format\":N,\"store_id\":\"<uuid>\"})");
        }
        int format = Integer.parseInt(f.group(1));
        if (format > FORMAT) {
            throw new StoreException(where + ": store format " + format + " is newer than this version reads ("
                    + FORMAT + ")");
        }
        return new Identity(format, UUID.fromString(id.group(1)));
    }
}
