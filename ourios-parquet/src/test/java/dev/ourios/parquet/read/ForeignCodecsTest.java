package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.LogFormatException;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.testkit.ForeignParquet;
import dev.ourios.testkit.TestSeed;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopCodecs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files from other writers: the same rows come back from a file DuckDB rewrote with each codec it writes as from
 * our ZSTD file, through our column decoding and parquet-java's record reader alike; pages of each codec compressed by
 * the codec's own writer (parquet-java's, aircompressor's Hadoop stream) decompress to what was compressed; a
 * footer naming a codec no reader here decodes, a damaged page, and a schema nested deeper than any stack are each
 * one error naming the file.
 */
class ForeignCodecsTest {
    /** DuckDB writes the 16- and 8-byte ids as BYTE_ARRAY, which the reader contract refuses: they are left out. */
    private static final String SELECT = "* EXCLUDE (trace_id, span_id)";

    @TempDir
    Path dir;

    private List<LogRecord> rows(long seed) {
        Random rnd = new Random(seed);
        List<LogRecord> rows = new ArrayList<>();
        for (int i = 0; i < 1200; i++) {
            rows.add(TestFiles.random(rnd, "svc-" + rnd.nextInt(3), b -> b.traceId(null).spanId(null)));
        }
        return rows;
    }

    @Test
    void everyCodecDuckDbWritesReadsToTheRowsOfOurZstdFile() throws Exception {
        long seed = TestSeed.announce(ForeignCodecsTest.class);
        var store = new LocalObjectStore(dir);
        TestFiles.write(store, "ours.parquet", WriterOptions.compacted(1 << 20).withRowGroupRows(300), rows(seed));
        List<LogRecord> expected = TestFiles.readAll(store, "ours.parquet", ReadOptions.all());
        for (String codec : ForeignParquet.DUCKDB_CODECS) {
            String key = codec + ".parquet";
            ForeignParquet.rewrite(dir.resolve("ours.parquet"), dir.resolve(key), codec, SELECT);
            assertEquals(expected, TestFiles.readAll(store, key, ReadOptions.all()), codec + ", seed " + seed);
            List<LogRecord> viaRecordReader = new ArrayList<>();
            try (LogFileReader r = LogFileReader.openWithRecordReader(store, key, ReadOptions.all())) {
                LogRecord rec;
                while ((rec = r.read()) != null) {
                    viaRecordReader.add(rec);
                }
            }
            assertEquals(expected, viaRecordReader, codec + " through parquet-java's record reader, seed " + seed);
        }
    }

    @Test
    void anEmptyPageOfEachCodecsOwnWriterDecompressesToNothing() throws IOException {
        CompressionCodecFactory parquetJava = HadoopCodecs.newFactory(new PlainParquetConfiguration(), 0);
        PageDecompressors ours = new PageDecompressors();
        try {
            for (CompressionCodecName codec : List.of(CompressionCodecName.SNAPPY, CompressionCodecName.GZIP,
                    CompressionCodecName.ZSTD, CompressionCodecName.LZ4_RAW, CompressionCodecName.UNCOMPRESSED)) {
                byte[] compressed = parquetJava.getCompressor(codec).compress(BytesInput.from(new byte[0]))
                        .toByteArray();
                assertArrayEquals(new byte[0], ours.getDecompressor(codec).decompress(BytesInput.from(compressed), 0)
                        .toByteArray(), codec.name());
            }
        } finally {
            parquetJava.release();
            ours.release();
        }
    }

    @Test
    void pagesOfEachCodecsOwnWriterDecompressToWhatWasCompressed() throws IOException {
        long seed = TestSeed.announce(ForeignCodecsTest.class);
        Random random = new Random(seed);
        CompressionCodecFactory parquetJava = HadoopCodecs.newFactory(new PlainParquetConfiguration(), 0);
        PageDecompressors ours = new PageDecompressors();
        try {
            for (int i = 0; i < 60; i++) {
                byte[] page = new byte[random.nextInt(5) == 0 ? random.nextInt(16) : random.nextInt(200_000)];
                int alphabet = 1 + random.nextInt(256);
                for (int j = 0; j < page.length; j++) {
                    page[j] = (byte) random.nextInt(alphabet);
                }
                String at = "page " + i + ", seed " + seed;
                for (CompressionCodecName codec : List.of(CompressionCodecName.SNAPPY, CompressionCodecName.GZIP,
                        CompressionCodecName.ZSTD, CompressionCodecName.LZ4_RAW, CompressionCodecName.UNCOMPRESSED)) {
                    byte[] compressed = parquetJava.getCompressor(codec).compress(BytesInput.from(page))
                            .toByteArray();
                    assertArrayEquals(page, ours.getDecompressor(codec).decompress(BytesInput.from(compressed),
                            page.length).toByteArray(), codec + " " + at);
                    if (page.length > 0 && codec != CompressionCodecName.UNCOMPRESSED) {
                        byte[] cut = java.util.Arrays.copyOf(compressed, compressed.length / 2);
                        assertThrows(IOException.class, () -> ours.getDecompressor(codec)
                                .decompress(BytesInput.from(cut), page.length), "a cut " + codec + " " + at);
                    }
                }
                // LZ4 (id 5) as Hadoop's codec frames it, written by aircompressor's Hadoop stream, and as a bare
                // block, as some writers put it under the same id.
                ByteArrayOutputStream framed = new ByteArrayOutputStream();
                try (OutputStream out = new io.airlift.compress.lz4.Lz4HadoopStreams(1 << 16)
                        .createOutputStream(framed)) {
                    out.write(page);
                }
                assertArrayEquals(page, ours.getDecompressor(CompressionCodecName.LZ4)
                        .decompress(BytesInput.from(framed.toByteArray()), page.length).toByteArray(), "LZ4 " + at);
                io.airlift.compress.lz4.Lz4Compressor block = new io.airlift.compress.lz4.Lz4Compressor();
                byte[] bare = new byte[block.maxCompressedLength(page.length)];
                int n = block.compress(page, 0, page.length, bare, 0, bare.length);
                assertArrayEquals(page, ours.getDecompressor(CompressionCodecName.LZ4)
                        .decompress(BytesInput.from(java.util.Arrays.copyOf(bare, n)), page.length).toByteArray(),
                        "bare LZ4 " + at);
            }
        } finally {
            ours.release();
            parquetJava.release();
        }
    }

    @Test
    void aFooterNamingACodecThisReaderDoesNotDecodeIsRefusedNamingFileColumnAndCodec() throws Exception {
        var store = new LocalObjectStore(dir);
        TestFiles.write(store, "ours.parquet", WriterOptions.compacted(1 << 20), rows(3).subList(0, 50));
        ForeignParquet.rewrite(dir.resolve("ours.parquet"), dir.resolve("one.parquet"), "lz4", SELECT);
        byte[] lz4Raw = Files.readAllBytes(dir.resolve("one.parquet"));
        int chunks = (int) org.apache.parquet.hadoop.ParquetFileReader.open(
                new org.apache.parquet.io.LocalInputFile(dir.resolve("one.parquet"))).getFooter().getBlocks().stream()
                .mapToLong(b -> b.getColumns().size()).sum();
        // LZO (id 3): a codec Parquet defines and this reader does not decode.
        Files.write(dir.resolve("lzo.parquet"), ForeignParquet.withCodecId(lz4Raw, 7, 3, chunks));
        LogFormatException lzo = assertThrows(LogFormatException.class,
                () -> TestFiles.readAll(store, "lzo.parquet", ReadOptions.all()));
        assertTrue(lzo.getMessage().startsWith(store.describe("lzo.parquet") + ": column '"), lzo.getMessage());
        assertTrue(lzo.getMessage().contains("is compressed with LZO, which this reader does not decode"),
                lzo.getMessage());
        // An id no Parquet version defines.
        Files.write(dir.resolve("unknown.parquet"), ForeignParquet.withCodecId(lz4Raw, 7, 60, chunks));
        LogFormatException unknown = assertThrows(LogFormatException.class,
                () -> TestFiles.readAll(store, "unknown.parquet", ReadOptions.all()));
        assertTrue(unknown.getMessage().startsWith(store.describe("unknown.parquet") + ": "), unknown.getMessage());
        assertTrue(unknown.getMessage().contains("names a page codec no Parquet version defines"),
                unknown.getMessage());
        assertTrue(unknown.getMessage().lines().count() == 1, unknown.getMessage());
    }

    @Test
    void damagedPagesAndADeeplyNestedSchemaAreOneErrorNamingTheFile() throws Exception {
        var store = new LocalObjectStore(dir);
        TestFiles.write(store, "ours.parquet", WriterOptions.compacted(1 << 20), rows(5));
        for (String codec : List.of("snappy", "gzip", "lz4", "zstd")) {
            ForeignParquet.rewrite(dir.resolve("ours.parquet"), dir.resolve(codec + ".parquet"), codec, SELECT);
            Files.write(dir.resolve("damaged-" + codec + ".parquet"),
                    ForeignParquet.withDamagedPages(Files.readAllBytes(dir.resolve(codec + ".parquet"))));
            String key = "damaged-" + codec + ".parquet";
            LogFormatException e = assertThrows(LogFormatException.class,
                    () -> TestFiles.readAll(store, key, ReadOptions.all()), codec);
            assertTrue(e.getMessage().startsWith(store.describe(key) + ": "), e.getMessage());
        }
        Files.write(dir.resolve("deep.parquet"), ForeignParquet.deeplyNested(200_000));
        LogFormatException deep = assertThrows(LogFormatException.class,
                () -> TestFiles.readAll(store, "deep.parquet", ReadOptions.all()));
        assertTrue(deep.getMessage().startsWith(store.describe("deep.parquet") + ": "), deep.getMessage());
        assertTrue(deep.getMessage().contains("nested"), deep.getMessage());
    }
}
