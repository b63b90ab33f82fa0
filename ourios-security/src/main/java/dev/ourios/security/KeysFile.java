package dev.ourios.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The content of a keys file: its keys in file order, names and token hashes unique (the codec enforces it when
 * reading, {@link #add} when appending).
 */
public record KeysFile(List<ApiKey> keys) {
    public KeysFile {
        keys = List.copyOf(keys);
    }

    public static KeysFile empty() {
        return new KeysFile(List.of());
    }

    public Optional<ApiKey> named(String name) {
        return keys.stream().filter(k -> k.name().equals(name)).findFirst();
    }

    /**
     * The key whose hash matches, revoked or not. Every entry is compared, in constant time each, so the time taken
     * does not tell which entry (if any) matched.
     */
    public Optional<ApiKey> matching(TokenHash presented) {
        ApiKey found = null;
        for (ApiKey k : keys) {
            if (k.tokenHash().matches(presented) && found == null) {
                found = k;
            }
        }
        return Optional.ofNullable(found);
    }

    /** This file with {@code key} appended; refuses a name or token hash already present. */
    public KeysFile add(ApiKey key) {
        if (named(key.name()).isPresent()) {
            throw new IllegalArgumentException("a key named '" + key.name() + "' already exists (names are unique, "
                    + "revoked keys included; choose another name)");
        }
        if (matching(key.tokenHash()).isPresent()) {
            throw new IllegalArgumentException("the token hash of key '" + key.name() + "' is already in the file");
        }
        List<ApiKey> out = new ArrayList<>(keys);
        out.add(key);
        return new KeysFile(out);
    }

    /** This file with {@code updated} in place of the key of the same name. */
    public KeysFile replace(ApiKey updated) {
        List<ApiKey> out = new ArrayList<>();
        for (ApiKey k : keys) {
            out.add(k.name().equals(updated.name()) ? updated : k);
        }
        return new KeysFile(out);
    }
}
