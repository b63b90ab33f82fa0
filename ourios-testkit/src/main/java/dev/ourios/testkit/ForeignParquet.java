package dev.ourios.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Properties;

/**
 * Parquet files as other writers and hostile hands make them: a file rewritten by DuckDB (its JDBC driver on the
 * test class path) with another page codec and optionally extra columns; a footer naming a codec id no Parquet
 * version defines; a footer whose schema nests groups deeper than any reader's stack; a file whose pages are
 * damaged behind an intact footer.
 */
public final class ForeignParquet {
    /** The page codecs DuckDB writes, by the name its COPY statement takes ("lz4" is LZ4_RAW). */
    public static final java.util.List<String> DUCKDB_CODECS =
            java.util.List.of("uncompressed", "snappy", "gzip", "zstd", "lz4", "brotli");

    private ForeignParquet() {
    }

    /**
     * DuckDB reads {@code from} and writes {@code select} (the items of a SQL select list over it, such as
     * {@code *} or {@code * EXCLUDE (trace_id), 'x' AS origin}) to {@code to} with {@code codec}. DuckDB writes
     * FIXED_LEN_BYTE_ARRAY columns as BYTE_ARRAY: a log file's trace and span ids are best left out. The path's
     * {@code key=value} directories are not read as columns.
     */
    public static void rewrite(Path from, Path to, String codec, String select) throws SQLException {
        try (Connection c = duckdb(); Statement s = c.createStatement()) {
            s.execute("COPY (SELECT " + select + " FROM read_parquet('" + from + "', hive_partitioning = false)) TO '" + to
                    + "' (FORMAT parquet, COMPRESSION " + codec + ")");
        }
    }

    /** {@link #rewrite} into a new file under {@code scratch}, returned as bytes. */
    public static byte[] rewritten(Path from, Path scratch, String codec, String select)
            throws SQLException, IOException {
        Path to = Files.createTempFile(scratch, "duckdb-", ".parquet");
        Files.delete(to); // DuckDB's COPY creates it
        rewrite(from, to, codec, select);
        return Files.readAllBytes(to);
    }

    /** How many column chunks the footer of {@code file} lists (DuckDB's parquet_metadata: a row per chunk). */
    public static int columnChunks(byte[] file, Path scratch) throws SQLException, IOException {
        Path p = Files.createTempFile(scratch, "chunks-", ".parquet");
        try {
            Files.write(p, file);
            try (Connection c = duckdb(); Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT count(*) FROM parquet_metadata('" + p + "')")) {
                r.next();
                return r.getInt(1);
            }
        } finally {
            Files.delete(p);
        }
    }

    /** An in-memory DuckDB that neither installs nor loads extensions (the tests run offline). */
    private static Connection duckdb() throws SQLException {
        Properties p = new Properties();
        p.setProperty("autoinstall_known_extensions", "false");
        p.setProperty("autoload_known_extensions", "false");
        return DriverManager.getConnection("jdbc:duckdb:", p);
    }

    /** The footer's thrift bytes: [start, end) of {@code file}. */
    private static int[] footer(byte[] file) {
        int length = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        return new int[] {file.length - 8 - length, file.length - 8};
    }

    /**
     * {@code file} with every column chunk's codec {@code codecId} replaced by {@code unknownId} (below 64, so the
     * footer keeps its length): the compact-protocol field 4 of ColumnMetaData, which follows field 3.
     */
    public static byte[] withCodecId(byte[] file, int codecId, int unknownId, int columnChunks) {
        byte[] out = file.clone();
        int[] f = footer(out);
        int found = 0;
        for (int i = f[0]; i + 1 < f[1]; i++) {
            if (out[i] == 0x15 && out[i + 1] == (byte) (codecId << 1)) {
                out[i + 1] = (byte) (unknownId << 1);
                found++;
            }
        }
        if (found != columnChunks) {
            throw new IllegalStateException("found the codec field " + found + " times, expected " + columnChunks);
        }
        return out;
    }

    /** {@code file} with the second half of its pages (everything between the magic and the footer) zeroed. */
    public static byte[] withDamagedPages(byte[] file) {
        byte[] out = file.clone();
        int end = footer(out)[0];
        Arrays.fill(out, 4 + (end - 4) / 2, end, (byte) 0);
        return out;
    }

    /** A Parquet file of no rows whose schema is {@code depth} groups, each holding the next, around one INT32. */
    public static byte[] deeplyNested(int depth) throws IOException {
        ByteArrayOutputStream thrift = new ByteArrayOutputStream();
        // FileMetaData: 1 version i32, 2 schema list<SchemaElement>, 3 num_rows i64, 4 row_groups list<RowGroup>.
        thrift.write(0x15);
        varint(thrift, zigzag(1));
        thrift.write(0x19); // field 2, list
        int elements = depth + 1;
        if (elements < 15) {
            thrift.write(elements << 4 | 0x0c);
        } else {
            thrift.write(0xfc);
            varint(thrift, elements);
        }
        for (int i = 0; i < elements; i++) {
            boolean leaf = i == depth;
            if (leaf) {
                thrift.write(0x15); // field 1 type: INT32 = 1
                varint(thrift, zigzag(1));
                thrift.write(0x25); // field 3 repetition_type: OPTIONAL = 1
                varint(thrift, zigzag(1));
                thrift.write(0x18); // field 4 name
            } else if (i > 0) {
                thrift.write(0x35); // field 3 repetition_type: OPTIONAL = 1
                varint(thrift, zigzag(1));
                thrift.write(0x18); // field 4 name
            } else {
                thrift.write(0x48); // field 4 name (the root has no repetition)
            }
            byte[] name = ("n" + i).getBytes(StandardCharsets.UTF_8);
            varint(thrift, name.length);
            thrift.write(name);
            if (!leaf) {
                thrift.write(0x15); // field 5 num_children
                varint(thrift, zigzag(1));
            }
            thrift.write(0);
        }
        thrift.write(0x16); // field 3 num_rows i64
        varint(thrift, 0);
        thrift.write(0x19); // field 4 row_groups, empty list of structs
        thrift.write(0x0c);
        thrift.write(0);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.write("PAR1".getBytes(StandardCharsets.US_ASCII));
        file.write(thrift.toByteArray());
        file.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(thrift.size()).array());
        file.write("PAR1".getBytes(StandardCharsets.US_ASCII));
        return file.toByteArray();
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7fL) != 0) {
            out.write((int) (v & 0x7f | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }
}
