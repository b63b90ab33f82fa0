package dev.ourios.table;

import java.util.List;
import java.util.Objects;

/**
 * The reference implementation's {@code manifest.json} of a partition (STORAGE.md §3.6): while no manifest of ours
 * is present, the partition's live set is exactly {@code files}. Values only; {@link ReferenceManifestCodec} parses
 * and checks them.
 *
 * @param generation the reference implementation's generation; our first commit in the partition is the next one
 * @param files      bare file names, each one path component ending in {@code .parquet}, none twice
 */
public record ReferenceManifest(long generation, List<String> files) {
    public ReferenceManifest {
        files = List.copyOf(Objects.requireNonNull(files, "files is null"));
    }

    /**
     * The same live set as one of our manifests at {@code generation}, with nothing retired and no commit record, so
     * that the commit building on it ({@link NextManifest}) and GC treat it as the partition's current manifest.
     */
    public Manifest asManifest() {
        return new Manifest(Manifest.FORMAT, generation, files, List.of(), null);
    }
}
