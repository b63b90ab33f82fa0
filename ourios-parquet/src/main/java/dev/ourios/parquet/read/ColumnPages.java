package dev.ourios.parquet.read;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.schema.MessageType;

/**
 * The pages of one row group's candidate rows for a schema, fetched column by column: a top-level field's chunks are
 * read the first time a page of one of its columns is asked for, so a column no row needs is never read (a count
 * whose column tests decide reads the tested columns alone). Where every request is costly (S3), the whole schema is
 * read at once on the first ask instead: one ranged read rather than one per column.
 */
final class ColumnPages implements Closeable {
    /** Reads the group's pages of the candidate rows for a schema. */
    @FunctionalInterface
    interface Fetch {
        PageReadStore read(MessageType schema) throws IOException;
    }

    private final MessageType schema;
    private final boolean together;
    private final Fetch fetch;
    private final Map<String, PageReadStore> byField = new HashMap<>();
    private PageReadStore all;

    ColumnPages(MessageType schema, boolean together, Fetch fetch) {
        this.schema = schema;
        this.together = together;
        this.fetch = fetch;
    }

    /** The pages of {@code leaf}, a column of the schema; a failed read is an {@link UncheckedIOException}. */
    PageReader pages(ColumnDescriptor leaf) {
        try {
            if (together) {
                if (all == null) {
                    all = fetch.read(schema);
                }
                return all.getPageReader(leaf);
            }
            String field = leaf.getPath()[0];
            PageReadStore pages = byField.get(field);
            if (pages == null) {
                pages = fetch.read(new MessageType(schema.getName(), schema.getType(field)));
                byField.put(field, pages);
            }
            return pages.getPageReader(leaf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (all != null) {
            all.close();
        }
        byField.values().forEach(PageReadStore::close);
    }
}
