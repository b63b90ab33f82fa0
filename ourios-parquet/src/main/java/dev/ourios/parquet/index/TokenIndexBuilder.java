package dev.ourios.parquet.index;

import dev.ourios.core.LineText;
import dev.ourios.core.LogRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the token index of one file (docs/spec/storage.md, "Token index"): rows are added in file order, each group
 * ended when the writer ends its row group; the result is the index region and its descriptor. One thread at a time.
 *
 * <p>A row whose attributes cannot be decoded, whose line is over {@link #MAX_LINE_BYTES} or whose attributes are over
 * {@link #MAX_ATTRIBUTES_CHARS} of JSON leaves its group without a filter (length 0: readers scan it), so the index
 * never rules out a row it did not read, and a huge value (a 16 MiB body) costs no more heap than the row itself.
 *
 * <p>Internal to ourios-parquet: public only for the {@code write} package.
 */
public final class TokenIndexBuilder {
    /** The longest line tokenized: a longer one leaves its group unindexed. */
    public static final int MAX_LINE_BYTES = 64 << 10;
    /** The longest attribute JSON (log or resource) decoded: a longer one leaves its group unindexed. */
    public static final int MAX_ATTRIBUTES_CHARS = 256 << 10;
    private final TokenBloomBuilder bloom;
    private final RegionSpool region;
    /** One group's filter on its way to the region (at most the cap). */
    private final ByteArrayOutputStream group = new ByteArrayOutputStream();
    private final List<Integer> lengths = new ArrayList<>();
    private boolean groupUnindexed;
    private long groupRows;
    /**
     * The attribute JSON of the group's previous row (null at a group's start): an equal one adds no key, and in a
     * sorted file most rows repeat the resource of the row before. Reset with every group, whose filter starts empty.
     */
    private String lastAttributes;
    private String lastResource;
    /** The bytes of an attribute key being hashed ({@link TokenKeys#pair}), reused from row to row. */
    private final byte[][] keyBytes = new byte[1][];

    /** Filters of at most {@code capBytes}, {@code bitsPerKey} bits a key (docs/spec/storage.md, "Token index"). */
    public TokenIndexBuilder(int capBytes, double bitsPerKey) {
        this(capBytes, bitsPerKey, RegionSpool.inMemory());
    }

    /** As {@link #TokenIndexBuilder(int, double)}, the ended groups' filters collecting in {@code region}. */
    public TokenIndexBuilder(int capBytes, double bitsPerKey, RegionSpool region) {
        this.bloom = new TokenBloomBuilder(capBytes, bitsPerKey);
        this.region = region;
    }

    /** The largest filter of one row group, in bytes (at most the cap). */
    public int maxFilterBytes() {
        return bloom.maxFilterBytes();
    }

    /** Adds one row of the open group. */
    public void add(LogRecord r) {
        groupRows++;
        if (groupUnindexed) {
            return; // the group is scanned whatever its other rows hold
        }
        byte[] line = LineText.of(r);
        String attributes = r.attributes();
        String resource = r.resourceAttributes();
        if (line != null && line.length > MAX_LINE_BYTES || attributes.length() > MAX_ATTRIBUTES_CHARS
                || resource.length() > MAX_ATTRIBUTES_CHARS) {
            groupUnindexed = true;
            return;
        }
        if (line != null) {
            TokenKeys.lineTokens(line, bloom::add);
        }
        try {
            if (!attributes.equals(lastAttributes)) {
                AttributeStrings.each(attributes, (k, v) -> bloom.add(TokenKeys.pair('A', k, v, keyBytes)));
                lastAttributes = attributes;
            }
            if (!resource.equals(lastResource)) {
                AttributeStrings.each(resource, (k, v) -> bloom.add(TokenKeys.pair('R', k, v, keyBytes)));
                lastResource = resource;
            }
        } catch (RuntimeException e) {
            groupUnindexed = true; // readers scan this group: its rows' attributes are not in the filter
        }
    }

    /** Ends the open group (called for every row group the file has, in order). */
    public void endGroup() throws IOException {
        group.reset();
        int length = bloom.finishGroup(group); // also clears the filter for the next group
        if (groupUnindexed) {
            lengths.add(0); // discarded: readers scan this group
        } else {
            group.writeTo(region.stream());
            lengths.add(length);
        }
        groupUnindexed = false;
        groupRows = 0;
        lastAttributes = null;
        lastResource = null;
    }

    /** Rows added to the open group. */
    public long groupRows() {
        return groupRows;
    }

    /** The index of every ended group: the region's bytes and each group's filter length; the region is handed over. */
    public TokenIndexRegion finish() {
        return new TokenIndexRegion(region, lengths.stream().mapToInt(Integer::intValue).toArray());
    }

    /** Frees the region of a file that is not finished (its spool file, if any). */
    public void discard() throws IOException {
        region.close();
    }
}
