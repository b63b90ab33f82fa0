package dev.ourios.parquet.rows;

/**
 * The string table of a batch of encoded rows (see {@link RowCodec}): low-cardinality values are stored once and
 * rows carry 4-byte references to them.
 */
public interface StringTable {
    /** Interns nothing: every value is stored inline, so the rows are self-contained. */
    StringTable NONE = new StringTable() {
        @Override
        public int intern(String s) {
            return -1;
        }

        @Override
        public byte[] utf8(int id) {
            throw new IllegalStateException("BUG: no string table");
        }

        @Override
        public String string(int id) {
            throw new IllegalStateException("BUG: no string table");
        }
    };

    /** The id to store for {@code s} (not null), or -1 to store it inline. */
    int intern(String s);

    /** The UTF-8 bytes of entry {@code id}; the same array instance for as long as the entry exists. */
    byte[] utf8(int id);

    /** Entry {@code id} as a String. */
    String string(int id);
}
